package inbox_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/tuios/tuios/inbox"
)

// Fuzz the held line check: only a call the person can read whole on one
// line is held. Hold never panics, and never holds a summary or shows a
// scope line with a newline, tab, doubled space, control or format
// character (bidi, zero-width), more than 160 bytes, or a secret the
// Inbox would mask.
func FuzzHoldNeverHoldsWhatItCannotShow(f *testing.F) {
	for _, s := range []string{"approve Bash: go test ./...", "approve Bash: ls  -l", "approve Bash: ls\u200b", "approve Bash: ls\u202e",
		"approve Bash: a\tb", "approve Bash: a\nb", "approve Bash: export API_KEY=abc", "approve Bash: curl -H 'Authorization: Bearer abc'",
		strings.Repeat("x", 161), "é"} {
		f.Add(s, "Bash(go test:*) in .claude/settings.local.json")
	}
	f.Fuzz(func(t *testing.T, summary, scope string) {
		r := newRig(t)
		r.approval("p", "approve Bash: ls")
		evs, err := r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h", Summary: summary, Options: []string{"once", "always", "deny"}, AlwaysScope: []string{scope}})
		if err != nil {
			if evs != nil {
				t.Fatal("a refused hold made events")
			}
			return
		}
		it := r.find(inbox.KindApproval, "p")
		if !it.Held() || it.Summary != summary {
			t.Fatalf("held %q as %q", summary, it.Summary)
		}
		for _, l := range append([]string{it.Summary}, it.AlwaysScope...) {
			if len(l) > inbox.MaxSummaryBytes || strings.Contains(l, "  ") || inbox.CleanSummary(l) != l {
				t.Fatalf("held a line it cannot show: %q", l)
			}
			for _, c := range l {
				if unicode.IsControl(c) || (unicode.Is(unicode.Cf, c) && c != 0x200d) {
					t.Fatalf("held a control or format character %U in %q", c, l)
				}
			}
		}
	})
}
