package hardware

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Format writes the table in a stable order, one line per card field:
// cards by name, device IDs sorted, profiles as CardProfiles orders them.
func (table VGPUTable) Format() []byte {
	var b bytes.Buffer
	b.WriteString("cards:\n")
	for _, name := range slices.Sorted(maps.Keys(table.Cards)) {
		c := table.Cards[name]
		fmt.Fprintf(&b, "  %+q:\n    memoryGB: %d\n", name, c.MemoryGB)
		if len(c.DefaultProfiles) > 0 {
			var ids []string
			for _, id := range slices.Sorted(maps.Keys(c.DefaultProfiles)) {
				ids = append(ids, fmt.Sprintf("%+q: %s", id, c.DefaultProfiles[id]))
			}
			fmt.Fprintf(&b, "    defaultProfiles: {%s}\n", strings.Join(ids, ", "))
		}
		var profiles []string
		for _, size := range sortedSizes(name, c) {
			profiles = append(profiles, fmt.Sprintf("%s: %d", size, c.Profiles[size]))
		}
		fmt.Fprintf(&b, "    profiles: {%s}\n", strings.Join(profiles, ", "))
	}
	return b.Bytes()
}
