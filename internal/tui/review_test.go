package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// reviewFixture is a review-diff result: a changed file with a note on
// one of its lines, and an untracked file. One line carries an escape
// sequence, a BEL, a bidi override and a tab, as a pane's file may.
func reviewFixture(window string) map[string]any {
	return map[string]any{
		"type": "review_diff", "session": "work", "window": window, "name": "shell",
		"base": "main", "base_sha": "20e3b85", "untrusted": true,
		"totals": map[string]any{"files": 2, "added": 3, "removed": 1},
		"files": []map[string]any{
			{"path": "a.txt", "status": "M", "added": 2, "removed": 1, "hunks": []map[string]any{{
				"header": "@@ -1,3 +1,4 @@", "old_start": 1, "old_lines": 3, "new_start": 1, "new_lines": 4,
				"lines": []map[string]any{
					{"op": "context", "old": 1, "new": 1, "text": "hi"},
					{"op": "delete", "old": 2, "text": "old line"},
					{"op": "add", "new": 2, "text": "new line"},
					{"op": "add", "new": 3, "text": "\x1b[31mred\x07 \u202eevil\ttab"},
					{"op": "context", "old": 3, "new": 4, "text": "end"},
				}}}},
			{"path": "b.txt", "status": "U", "added": 1, "removed": 0, "hunks": []map[string]any{{
				"header": "@@ -0,0 +1 @@", "old_start": 0, "old_lines": 0, "new_start": 1, "new_lines": 1,
				"lines": []map[string]any{{"op": "add", "new": 1, "text": "fresh"}}}}},
		},
		"notes": []map[string]any{{"id": "n1", "session": "work", "window": window, "path": "a.txt", "side": "new",
			"line": 2, "quote": "new line", "text": "why this line", "by": "shell"}},
	}
}

// openReview opens the review of the focused pane (w1) and answers it.
func openReviewed(t *testing.T, m *Model, fc *fakeCalls) {
	t.Helper()
	m.Update(key("ctrl+b"))
	m.Update(key("v"))
	c := fc.last(t, "review-diff")
	if c.params["window"] != "w1" || c.params["session"] != "work" || c.tag != tagReviewDiff+"w1" {
		t.Fatalf("review-diff call: %+v", c)
	}
	m.Update(reply(c.tag, reviewFixture("w1")))
}

func TestReviewOverlayDrawsFilesDiffAndNotes(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("v"))
	if s := screenText(m); !strings.Contains(s, "Review work shell w1") || !strings.Contains(s, "reading the diff…") {
		t.Fatalf("while the diff is read:\n%s", s)
	}
	m.Update(reply(fc.last(t, "review-diff").tag, reviewFixture("w1")))
	rows := plain(m)
	if len(rows) != 20 {
		t.Fatalf("%d rows, want the whole screen's 20", len(rows))
	}
	for i, r := range rows {
		if w := ansi.StringWidth(r); w != 104 {
			t.Errorf("row %d is %d cells wide, want 104: %q", i, w, r)
		}
	}
	s := strings.Join(rows, "\n")
	for _, want := range []string{
		"Review work shell w1  2 files +3 -1  vs main  1 note",
		"M a.txt", "+2 -1 ▌1", "U b.txt", "+1 -0",
		"› @@ -1,3 +1,4 @@",
		"1 1   hi", "2   - old line", "  2 + new line",
		"▌ note from a script: why this line",
		`3 + \x1b[31mred\x07 \u202eevil  tab`,
		"esc close",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the review lacks %q:\n%s", want, s)
		}
	}
	// The note is under its line.
	at := func(sub string) int {
		for i, r := range rows {
			if strings.Contains(r, sub) {
				return i
			}
		}
		return -1
	}
	if at("why this line") != at("+ new line")+1 {
		t.Errorf("the note is not under line 2:\n%s", s)
	}
	// Nothing from the pane's text reached the terminal raw: the only
	// escapes are the overlay's own colours.
	raw := m.Render()
	if strings.ContainsAny(raw, "\x07\u202e") || strings.Contains(raw, "\x1b[31mred") {
		t.Errorf("pane text drawn raw: %q", raw)
	}
	// The panes under it are not drawn: the overlay covers the rail too.
	if strings.Contains(s, "0:shell") || strings.Contains(s, "Sessions") {
		t.Errorf("the panes show through:\n%s", s)
	}
}

func TestReviewKeysMoveNoteAndSend(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	openReviewed(t, m, fc)
	// The file list has the keys: j selects b.txt, whose diff shows.
	m.Update(key("j"))
	if s := screenText(m); !strings.Contains(s, "1 + fresh") || strings.Contains(s, "old line") {
		t.Fatalf("j in the list did not show b.txt:\n%s", s)
	}
	m.Update(key("k"))
	// tab moves the keys to the diff; the cursor is on the hunk's header.
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	m.Update(key("j")) // hi
	m.Update(key("j")) // old line
	m.Update(key("c"))
	if s := screenText(m); !strings.Contains(s, "note on a.txt:2 (old): ") {
		t.Fatalf("c on a deleted line: no note line on the dock:\n%s", s)
	}
	before := len(fc.calls)
	for _, r := range "keep it" {
		m.Update(key(string(r)))
	}
	m.Update(tea.PasteMsg{Content: " \x1b[2Jplease"})
	if len(fc.calls) != before {
		t.Fatalf("typing a note called the daemon (or the pane): %+v", fc.calls[before:])
	}
	m.Update(key("enter"))
	c := fc.last(t, "review-note")
	if c.params["action"] != "add" || c.params["path"] != "a.txt" || c.params["line"] != 2 || c.params["side"] != "old" ||
		c.params["text"] != "keep it please" || c.params["human_nonce"] != "N1" || c.params["window"] != "w1" {
		t.Fatalf("review-note call: %+v", c.params)
	}
	// The daemon's answer lists the notes: the new one shows under its line.
	m.Update(reply(c.tag, map[string]any{"type": "review_notes", "id": "n2", "notes": []map[string]any{
		{"id": "n1", "path": "a.txt", "side": "new", "line": 2, "text": "why this line", "by": "shell"},
		{"id": "n2", "path": "a.txt", "side": "old", "line": 2, "text": "keep it please", "by": "human"},
	}}))
	rows := plain(m)
	var on, note int
	for i, r := range rows {
		if strings.Contains(r, "- old line") {
			on = i
		}
		if strings.Contains(r, "note from you: keep it") {
			note = i
		}
	}
	if note != on+1 || !strings.Contains(screenText(m), "note n2 added") {
		t.Fatalf("the new note is not under the old line:\n%s", screenText(m))
	}
	// C notes the whole hunk.
	m.Update(key("C"))
	m.Update(key("x"))
	m.Update(key("enter"))
	if c := fc.last(t, "review-note"); c.params["hunk"] != "@@ -1,3 +1,4 @@" || c.params["line"] != nil {
		t.Fatalf("C: %+v", c.params)
	}
	// esc on the note line drops it; an empty note is not sent.
	m.Update(key("c"))
	m.Update(key("esc"))
	m.Update(key("c"))
	m.Update(key("enter"))
	if n := countCalls(fc, "review-note"); n != 2 {
		t.Fatalf("%d review-note calls, want 2", n)
	}
	// S sends; the diff is read again to show the notes sent.
	m.Update(key("S"))
	c = fc.last(t, "send-review")
	if c.params["window"] != "w1" || c.params["human_nonce"] != "N1" {
		t.Fatalf("send-review: %+v", c.params)
	}
	diffs := countCalls(fc, "review-diff")
	m.Update(reply(c.tag, map[string]any{"type": "review_sent", "notes": 2, "position": 1, "queued": true}))
	if countCalls(fc, "review-diff") != diffs+1 || !strings.Contains(screenText(m), "sent 2 notes to shell") {
		t.Fatalf("after the send:\n%s", screenText(m))
	}
	// No key, paste or click went to a pane while the review was open.
	m.Update(tea.MouseClickMsg{X: 80, Y: 5, Button: tea.MouseLeft})
	m.Update(tea.MouseReleaseMsg{X: 80, Y: 5, Button: tea.MouseLeft})
	if n := countCalls(fc, "send-text") + countCalls(fc, "focus-window"); n != 0 {
		t.Fatalf("%d keys or clicks reached a pane under the review", n)
	}
	// esc closes: the panes are back.
	m.Update(key("esc"))
	if m.review != nil || !strings.Contains(screenText(m), "0:shell") {
		t.Fatalf("esc did not close the review:\n%s", screenText(m))
	}
}

func TestReviewSideBySideWhenWide(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	openReviewed(t, m, fc)
	m.Update(key("s")) // 104 columns: the diff gets 77, too narrow
	if s := screenText(m); !strings.Contains(s, "too narrow") || !strings.Contains(s, "2   - old line") {
		t.Fatalf("s on a narrow screen:\n%s", s)
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 20})
	rows := plain(m)
	found := false
	for _, r := range rows {
		if strings.Contains(r, "2 - old line") && strings.Contains(r, "2 + new line") {
			found = true
			if strings.Index(r, "old line") > strings.Index(r, "new line") {
				t.Errorf("old is not on the left: %q", r)
			}
		}
	}
	if !found || !strings.Contains(screenText(m), "s unified") {
		t.Fatalf("side by side on a wide screen:\n%s", screenText(m))
	}
	// c on the pair notes its new side.
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	m.Update(key("j"))
	m.Update(key("j"))
	m.Update(key("c"))
	if !strings.Contains(screenText(m), "note on a.txt:2: ") {
		t.Fatalf("c on a pair:\n%s", screenText(m))
	}
	m.Update(key("esc"))
	m.Update(key("s"))
	if strings.Contains(screenText(m), "s unified") {
		t.Fatal("s again did not go back to unified")
	}
}

func TestReviewFromAnInboxRow(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	openWith(t, m, map[string]any{"id": "7", "kind": "finished", "session": "api", "window": "w9", "name": "codex", "summary": "done"})
	if !strings.Contains(screenText(m), "v review") {
		t.Fatalf("the Done row's footer does not offer v:\n%s", screenText(m))
	}
	m.Update(key("v"))
	c := fc.last(t, "review-diff")
	if c.params["session"] != "api" || c.params["window"] != "w9" {
		t.Fatalf("v on a row: %+v", c.params)
	}
	// An answer for another pane is not drawn.
	m.Update(reply(tagReviewDiff+"w1", reviewFixture("w1")))
	if m.review.loaded {
		t.Fatal("another pane's diff was taken")
	}
	m.Update(reply(c.tag, reviewFixture("w9")))
	if !strings.Contains(screenText(m), "a.txt") {
		t.Fatalf("the row's review:\n%s", screenText(m))
	}
	// esc goes back to the Inbox.
	m.Update(key("esc"))
	if m.inbox == nil || !strings.Contains(screenText(m), "Done") {
		t.Fatalf("esc did not come back to the Inbox:\n%s", screenText(m))
	}
	// A row on another machine is not reviewed here.
	before := countCalls(fc, "review-diff")
	m.reviewItem(item{Session: "s", Window: "w5", Host: "far"})
	if countCalls(fc, "review-diff") != before || m.review != nil || !strings.Contains(m.dock, "not supported yet") {
		t.Fatalf("a host's row: review %v, dock %q", m.review, m.dock)
	}
}

func TestReviewErrorsAndRebinding(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{Bindings: map[string]string{ActReview: "R"}})
	m.Update(key("ctrl+b"))
	m.Update(key("v"))
	if m.review != nil {
		t.Fatal("v opened the review though it was rebound to R")
	}
	m.Update(key("ctrl+b"))
	m.Update(key("R"))
	c := fc.last(t, "review-diff")
	m.Update(replyMsg{tag: c.tag, verb: "review-diff", err: &proto.Error{Code: "not_repo", Message: "/tmp is not in a git repository"}})
	if s := screenText(m); !strings.Contains(s, "review: /tmp is not in a git repository") {
		t.Fatalf("the refusal is not shown:\n%s", s)
	}
	// prefix d still detaches from under the review.
	m.Update(key("ctrl+b"))
	_, cmd := m.Update(key("d"))
	if cmd == nil || m.Outcome() == nil {
		t.Fatal("prefix d did not detach while the review was open")
	}
}

// FuzzReviewDraw draws a diff of any text: every row stays the screen's
// width and no byte of the text reaches the terminal as a control.
func FuzzReviewDraw(f *testing.F) {
	f.Add("plain", "a.go", "note")
	f.Add("\x1b]0;title\x07\x1b[2J\r\n", "\u202edir/x", "\x9b31m")
	f.Add("\t\t漢字\xff\xfe", "", "\x00")
	f.Fuzz(func(t *testing.T, text, path, note string) {
		m, fc, _ := newTest(t, Options{})
		d := reviewFixture("w1")
		files := d["files"].([]map[string]any)
		files[0]["path"] = path
		files[0]["hunks"].([]map[string]any)[0]["lines"].([]map[string]any)[1]["text"] = text
		d["notes"].([]map[string]any)[0]["path"] = path
		d["notes"].([]map[string]any)[0]["text"] = note
		m.Update(key("ctrl+b"))
		m.Update(key("v"))
		m.Update(reply(fc.last(t, "review-diff").tag, d))
		for _, side := range []bool{false, true} {
			m.review.side = side
			m.Update(tea.WindowSizeMsg{Width: 104 + 100*btoi(side), Height: 20})
			out := m.Render()
			for i, r := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(r); w != m.width {
					t.Fatalf("row %d is %d wide, want %d: %q", i, w, m.width, r)
				}
			}
			// Only SGR sequences (ESC [ … m) are the overlay's own.
			rest := out
			for {
				i := strings.IndexByte(rest, 0x1b)
				if i < 0 {
					break
				}
				j := i + 1
				if j >= len(rest) || rest[j] != '[' {
					t.Fatalf("a bare escape reached the screen: %q", rest[i:])
				}
				for j++; j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == ';'); j++ {
				}
				if j >= len(rest) || rest[j] != 'm' {
					t.Fatalf("a non-SGR escape reached the screen: %q", rest[i:min(i+12, len(rest))])
				}
				rest = rest[j+1:]
			}
			if strings.ContainsFunc(out, func(r rune) bool {
				return r < 0x20 && r != '\n' && r != 0x1b || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u202e'
			}) {
				t.Fatalf("a control character reached the screen: %q", out)
			}
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A diff at the daemon's limits: 400 of more files, a file past 5000
// lines shown as counts only, a 5000-line hunk scrolled through.
func TestReviewAtTheLimits(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("v"))
	lines := make([]map[string]any, 5000)
	for i := range lines {
		lines[i] = map[string]any{"op": "add", "new": i + 1, "text": strings.Repeat("x", 300)}
	}
	files := []map[string]any{
		{"path": "big.txt", "status": "A", "added": 5000, "hunks": []map[string]any{{"header": "@@ -0,0 +1,5000 @@", "new_start": 1, "new_lines": 5000, "lines": lines}}},
		{"path": "huge.txt", "status": "A", "added": 90000, "truncated": true, "hunks": []map[string]any{}},
	}
	for i := len(files); i < 400; i++ {
		files = append(files, map[string]any{"path": "f" + strings.Repeat("0", 3) + string(rune('a'+i%26)), "status": "M", "added": 1})
	}
	m.Update(reply(fc.last(t, "review-diff").tag, map[string]any{"session": "work", "window": "w1", "name": "shell", "base": "main",
		"totals": map[string]any{"files": 523, "added": 95399}, "truncated": true, "files": files}))
	s := screenText(m)
	if !strings.Contains(s, "400 of 523 files shown") || !strings.Contains(s, "[stopped at the limits") {
		t.Fatalf("the limits are not said:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	m.Update(key("G"))
	if s := screenText(m); !strings.Contains(s, "5000 + xxxx") {
		t.Fatalf("G did not reach the last line:\n%s", s)
	}
	for i, r := range plain(m) {
		if w := ansi.StringWidth(r); w != 104 {
			t.Fatalf("row %d is %d wide", i, w)
		}
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	m.Update(key("j"))
	if s := screenText(m); !strings.Contains(s, "too long to show here (+90000 -0)") {
		t.Fatalf("the file past the limits:\n%s", s)
	}
	// The list scrolls with its cursor.
	for range 399 {
		m.Update(key("j"))
	}
	if m.review.file != 399 || !strings.Contains(plain(m)[17], "›M") {
		t.Fatalf("the last file is not in view (file %d):\n%s", m.review.file, screenText(m))
	}
}

// A long note is wrapped under its line, so all of it can be read.
func TestReviewLongNoteWraps(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("v"))
	d := reviewFixture("w1")
	var words []string
	for i := range 40 {
		words = append(words, "word"+string(rune('a'+i%26))+strings.Repeat("z", i%5))
	}
	d["notes"].([]map[string]any)[0]["text"] = strings.Join(words, " ")
	m.Update(reply(fc.last(t, "review-diff").tag, d))
	s := screenText(m)
	var body strings.Builder
	for _, r := range plain(m) {
		if i := strings.Index(r, "│"); i >= 0 {
			body.WriteString(strings.TrimSpace(strings.TrimLeft(r[i+len("│"):], " ›▌")) + " ")
		}
	}
	if !strings.Contains(body.String(), "note from a script: "+strings.Join(words, " ")) {
		t.Fatalf("the note is not all there:\n%s", s)
	}
	if !strings.Contains(s, "+ new line") || strings.Count(s, "│  ▌ ") < 3 {
		t.Fatalf("the note did not wrap under its line:\n%s", s)
	}
}
