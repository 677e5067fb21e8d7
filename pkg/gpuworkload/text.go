package gpuworkload

import (
	"strconv"
	"strings"
)

// MaxListed is how many items a message names before it counts the rest:
// a node with 10,000 resources or a pod with 4,000 requests still gets a
// message a person can read and an event the API server takes.
const MaxListed = 10

// JoinBounded joins up to MaxListed items with sep and counts the rest:
// "a, b, ... and 9,990 more".
func JoinBounded(items []string, sep string) string {
	if len(items) <= MaxListed {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:MaxListed], sep) + " and " + GroupDigits(len(items)-MaxListed) + " more"
}

// GroupDigits writes n with thousands separated by commas: 9,990.
func GroupDigits(n int) string {
	s := strconv.Itoa(n)
	start := len(s) % 3
	if n < 0 {
		return "-" + GroupDigits(-n)
	}
	var b strings.Builder
	b.WriteString(s[:start])
	for i := start; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
