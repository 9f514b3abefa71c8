package daemon

import (
	"path/filepath"
	"testing"
)

// TestReviewNotesReadTheWorktreesBase: in a worktree made from main that
// has a commit of its own, a hunk note takes a header the review shows
// (the diff against main, not against HEAD), and a note on side old
// quotes main's line.
func TestReviewNotesReadTheWorktreesBase(t *testing.T) {
	w := newFanWorld(t, nil)
	w.r.must("new-worktree", map[string]any{"branch": "feat/retry", "repo": w.repo})
	dir := filepath.Join(w.data, "tuios", "worktrees", "api", "feat-retry")
	w.write(dir, "a.txt", "x\ny\nz\n")
	w.git(dir, "commit", "-qam", "change")
	w.write(dir, "a.txt", "top\nchanged\n")

	d := w.r.must("review-diff", map[string]any{"session": "api-feat-retry"})
	files := d["files"].([]any)
	if d["base"] != "main" || len(files) != 1 {
		t.Fatalf("diff: %v", d)
	}
	hunks := files[0].(map[string]any)["hunks"].([]any)
	header := str(hunks[0].(map[string]any)["header"])
	res := w.r.must("review-note", map[string]any{"action": "add", "session": "api-feat-retry", "path": "a.txt", "hunk": header, "text": "why both"})
	if res["id"] == nil {
		t.Fatalf("hunk note %q: %v", header, res)
	}
	res = w.r.must("review-note", map[string]any{"action": "add", "session": "api-feat-retry", "path": "a.txt", "line": 1, "side": "old", "text": "keep hi"})
	quote := ""
	for _, v := range res["notes"].([]any) {
		if n := v.(map[string]any); n["id"] == res["id"] {
			quote = str(n["quote"])
		}
	}
	if quote != "hi" {
		t.Fatalf("old side of line 1 quotes %q, want main's %q", quote, "hi")
	}
}
