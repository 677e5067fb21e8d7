package explanation

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncateNoteKeepsTheFix(t *testing.T) {
	fixPart := " Fix: " + strings.Repeat("f", 100)
	for _, tc := range []struct {
		name, message string
		wantFix       bool
	}{
		{name: "short", message: "short." + fixPart, wantFix: true},
		{name: "long body", message: strings.Repeat("é", 2000) + fixPart, wantFix: true},
		{name: "fix longer than half the limit", message: strings.Repeat("b", 2000) + " Fix: " + strings.Repeat("f", 600)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TruncateNote(tc.message)
			if len(got) > 1024 || !utf8.ValidString(got) {
				t.Fatalf("%d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
			}
			if len(tc.message) <= 1024 && got != tc.message {
				t.Fatalf("a short note changed: %q", got)
			}
			if tc.wantFix != strings.HasSuffix(got, fixPart) {
				t.Fatalf("keeps the fix: %v, want %v: %q", !tc.wantFix, tc.wantFix, got)
			}
		})
	}
}

func TestNameListCountsBeyondThree(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"ns/a"}, "ns/a"},
		{[]string{"ns/a", "ns/b", "ns/c"}, "ns/a, ns/b, ns/c"},
		{[]string{"ns/a", "ns/b", "ns/c", "ns/d", "ns/e"}, "ns/a, ns/b, ns/c and 2 more"},
	} {
		if got := nameList(tc.names); got != tc.want {
			t.Errorf("nameList(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
