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
