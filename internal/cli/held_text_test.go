package cli

import (
	"strings"
	"testing"
	"time"
)

// d.md 15 and 18: a risky approval's row reads risky: as in the attach
// client; a plan row is its title and length, once, whether or not the
// summary already carries the length.
func TestWriteAttentionRiskyAndPlanRows(t *testing.T) {
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	since := now.Add(-5 * time.Second).UnixNano()
	risky := attentionItem{ID: "3", Kind: "approval", Session: "s1", Name: "pe", Summary: "approve Bash: rm -rf build/", Since: since, HeldID: "r1"}
	risky.Risk = append(risky.Risk, riskHit{Rule: "recursive delete", Why: "deletes a tree of files without asking", Text: "rm -rf build/"})
	items := []attentionItem{
		risky,
		{ID: "4", Kind: "plan", Session: "s1", Name: "pp", Summary: "Add retry (80 lines)", Since: since, HeldID: "r2", PlanLines: 80},
		{ID: "5", Kind: "plan", Session: "s1", Name: "pq", Summary: "Tiny plan", Since: since, HeldID: "r3", PlanLines: 1},
	}
	var b strings.Builder
	WriteAttention(&b, items, now)
	got := b.String()
	for _, want := range []string{
		"#3     s1/pe  risky: approve Bash: rm -rf build/ (held: answer in the Inbox)\n" +
			"                risky: recursive delete: deletes a tree of files without asking (rm -rf build/)\n",
		"#4     s1/pp  Add retry (80 lines) (held: answer in the Inbox)\n",
		"#5     s1/pq  Tiny plan (1 line) (held: answer in the Inbox)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
}
