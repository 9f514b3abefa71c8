package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// The review overlay (seed 003, "Reviewing an agent's changes"): prefix v
// reviews the focused pane, v on an Inbox row that row's pane. It covers
// the whole screen: the changed files on the left, the selected file's
// diff on the right with each note under its line. j/k or the arrows
// move, enter or tab moves the keys between the list and the diff, c
// notes the line under the cursor and C its whole hunk (the note line
// opens on the dock), S sends every unsent note to the agent as one
// message through the reply queue, s puts the old and new sides next to
// each other when the screen is wide enough, esc or q closes.
//
// The daemon does the work (review-diff, review-note, send-review): the
// client only draws the diff it gets back, which is the pane's files and
// so data: every line is escaped before it is drawn (review_view.go).

// reviewView is the overlay's state.
type reviewView struct {
	session, window string // the pane reviewed
	name            string // its name as the person knows it, until the diff comes
	loaded          bool
	err             string // the daemon refused the diff
	d               reviewDiff

	file   int  // the selected file
	ftop   int  // the first file row shown
	inDiff bool // the diff has the keys (else the file list)
	cur    int  // the cursor's row in the diff
	top    int  // the first diff row shown
	side   bool // s: old and new next to each other, when wide enough

	// laid is rows' last layout, of file laidFile with laidSide in
	// laidWidth cells; nil when the diff or its notes changed since.
	laid      []reviewRow
	laidFile  int
	laidSide  bool
	laidWidth int

	input *inboxInput // the note being written, on the dock
	// what the note being written is on: path and line or hunk
	noteOn proto.ReviewNoteParams

	// A fan's pane (review_compare.go): compare is the comparison of
	// its fan's attempts while w shows it; lastCompare the one this
	// review was opened from (w goes back to it); against another attempt
	// this one is diffed with (d on two marked attempts).
	compare     *compareView
	lastCompare *compareView
	against     string
}

// reviewDiff is review-diff's result (internal/proto).
type reviewDiff = proto.ReviewDiff

// Reply tags: the window is in the tag so the answer for a review that
// was closed (or replaced by another pane's) is dropped.
const (
	tagReviewDiff = "review:diff:"
	tagReviewNote = "review:note:"
	tagReviewSend = "review:send:"
)

// openReviewFocused is prefix v: the focused pane's review.
func (m *Model) openReviewFocused() {
	w, ok := m.focused()
	if !ok {
		m.say("review: no pane is focused")
		return
	}
	m.openReview(m.session, w.ID, clean(w.Name), m.link.host)
}

// reviewItem is v on an Inbox row: the review of the row's pane.
func (m *Model) reviewItem(it item) {
	if it.Window == "" {
		m.say("review: this row names no pane")
		return
	}
	m.openReview(it.Session, it.Window, clean(it.Name), it.Host)
}

// openReview asks for a pane's diff and opens the overlay on it.
func (m *Model) openReview(session, window, name, host string) {
	if host != "" && host != "local" {
		m.say("review: reviewing a session on another machine is not supported yet; attach to that machine and review there, or bring the work here with tuios worktree pull")
		return
	}
	if session == "" {
		session = m.session
	}
	m.review = &reviewView{session: session, window: window, name: name}
	m.fetchReview()
}

// fetchReview asks for the diff again: on open, after a send.
func (m *Model) fetchReview() {
	rv := m.review
	m.call("review-diff", proto.ReviewDiffParams{Session: rv.session, Window: rv.window, Against: rv.against}, tagReviewDiff+rv.window)
}

// reviewKey takes prefix v, and every key while the review is open: the
// panes under it get none. The prefix still works for detach, and prefix
// v again closes the review.
func (m *Model) reviewKey(k tea.Key) (tea.Cmd, bool) {
	rv := m.review
	if m.clock.Now().Before(m.dropUntil) {
		return nil, rv != nil // a question just opened the Inbox: keys are dropped
	}
	name := keyName(k)
	if rv == nil {
		if m.prefix && m.keys.action[name] == ActReview {
			m.prefix, m.oldestArmed, m.oldestAt, m.railOn = false, false, 0, false
			m.openReviewFocused()
			return nil, true
		}
		return nil, false
	}
	if rv.compare != nil && !m.prefix && name != m.keys.prefix {
		return m.compareKey(k, name), true // review_compare.go
	}
	if rv.input != nil {
		m.reviewInputKey(k, name)
		return nil, true
	}
	if m.prefix {
		m.prefix = false
		switch m.keys.action[name] {
		case ActDetach:
			return m.detach(), true
		case ActReview:
			m.closeReview()
		}
		return nil, true
	}
	if name == m.keys.prefix {
		m.prefix = true
		return nil, true
	}
	m.reviewViewKey(name)
	return nil, true
}

func (m *Model) closeReview() {
	m.review = nil
	m.dock = ""
}

// reviewViewKey is a key on the overlay itself.
func (m *Model) reviewViewKey(name string) {
	rv := m.review
	body := m.reviewBodyRows()
	switch m.keys.in(ModeReview, name) { // bindings.go: [keybindings.review]
	case "review.close":
		m.closeReview()
	case "review.switch":
		rv.inDiff = !rv.inDiff
	case "review.down":
		m.reviewMove(1, body)
	case "review.up":
		m.reviewMove(-1, body)
	case "review.page-down":
		m.reviewMove(max(body-1, 1), body)
	case "review.page-up":
		m.reviewMove(-max(body-1, 1), body)
	case "review.top":
		m.reviewMove(-1<<30, body)
	case "review.bottom":
		m.reviewMove(1<<30, body)
	case "review.files":
		rv.inDiff = false
	case "review.diff":
		rv.inDiff = true
	case "review.side":
		rv.side = !rv.side
		rv.cur, rv.top = 0, 0
		rv.cur = firstSelectable(m.reviewRows())
		if rv.side && !m.reviewSideBySide() {
			m.say("review: the screen is too narrow to put the sides next to each other")
		} else {
			m.dock = ""
		}
	case "review.note":
		m.reviewNoteLine()
	case "review.note-hunk":
		m.reviewNoteHunk()
	case "review.send":
		m.call("send-review", proto.SendReviewParams{Session: rv.session, Window: rv.window, HumanNonce: m.nonce}, tagReviewSend+rv.window)
		m.say("review: sending the notes…")
	case "review.fan":
		if back := rv.lastCompare; back != nil {
			rv.compare, rv.lastCompare = back, nil
			m.fetchCompare()
			return
		}
		m.openCompare() // review_compare.go
	}
}

// reviewMove moves the cursor of the part that has the keys by d rows.
func (m *Model) reviewMove(d, body int) {
	rv := m.review
	if !rv.inDiff {
		n := len(rv.d.Files)
		if n == 0 {
			return
		}
		f := min(max(rv.file+d, 0), n-1)
		if f != rv.file {
			rv.file = f
			rv.top = 0
			rv.cur = firstSelectable(m.reviewRows())
		}
		return
	}
	rows := m.reviewRows()
	rv.cur = moveSelectable(rows, rv.cur, d)
	rv.top = scrollTo(rv.top, rv.cur, body, len(rows))
}

// firstSelectable is the first row the cursor may stand on.
func firstSelectable(rows []reviewRow) int {
	for i, r := range rows {
		if r.selectable() {
			return i
		}
	}
	return 0
}

// moveSelectable moves from cur by d rows, onto a row the cursor may stand
// on (a hunk's header or a code line, not a note), in d's direction
// first, else back.
func moveSelectable(rows []reviewRow, cur, d int) int {
	if len(rows) == 0 {
		return 0
	}
	to := min(max(cur+d, 0), len(rows)-1)
	step := 1
	if d < 0 {
		step = -1
	}
	for i := to; i >= 0 && i < len(rows); i += step {
		if rows[i].selectable() {
			return i
		}
	}
	for i := to; i >= 0 && i < len(rows); i -= step {
		if rows[i].selectable() {
			return i
		}
	}
	return cur
}

// scrollTo keeps row cur inside a window of body rows starting at top.
func scrollTo(top, cur, body, n int) int {
	if body <= 0 {
		return 0
	}
	if cur < top {
		top = cur
	}
	if cur >= top+body {
		top = cur - body + 1
	}
	return max(0, min(top, n-body))
}

// cursorRow is the diff row under the cursor.
func (m *Model) cursorRow() (reviewRow, bool) {
	rv := m.review
	rows := m.reviewRows()
	if rv.cur < 0 || rv.cur >= len(rows) || !rows[rv.cur].selectable() {
		return reviewRow{}, false
	}
	return rows[rv.cur], true
}

// reviewNoteLine is c: a note on the line under the cursor. A deleted
// line is noted on the old side, by its number in the base.
func (m *Model) reviewNoteLine() {
	rv := m.review
	f, ok := rv.selectedFile()
	r, have := m.cursorRow()
	if !ok || !have || r.kind != rowLine {
		m.say("review: put the cursor on a line of the diff (enter or tab moves to it), then c")
		return
	}
	l := r.noteLine()
	side, n := review.SideNew, l.New
	if l.Op == review.OpDelete {
		side, n = review.SideOld, l.Old
	}
	where := fmt.Sprintf("%s:%d", clean(f.Path), n)
	if side == review.SideOld {
		where += " (old)"
	}
	rv.noteOn = proto.ReviewNoteParams{Path: f.Path, Line: n, Side: string(side)}
	rv.input = &inboxInput{label: "note on " + where + ": ", limit: review.MaxNoteBytes}
}

// reviewNoteHunk is C: a note on the whole hunk under the cursor.
func (m *Model) reviewNoteHunk() {
	rv := m.review
	f, ok := rv.selectedFile()
	r, have := m.cursorRow()
	if !ok || !have || r.hunk < 0 || r.hunk >= len(f.Hunks) {
		m.say("review: put the cursor in a hunk of the diff (enter or tab moves to it), then C")
		return
	}
	h := f.Hunks[r.hunk]
	rv.noteOn = proto.ReviewNoteParams{Path: f.Path, Hunk: h.Header}
	rv.input = &inboxInput{label: "note on " + clean(f.Path) + " " + clean(hunkHead(h.Header)) + ": ", limit: review.MaxNoteBytes}
}

// hunkHead is a hunk header's @@ … @@ part.
func hunkHead(h string) string {
	if i := strings.Index(h[min(2, len(h)):], "@@"); i >= 0 {
		return h[:i+4]
	}
	return h
}

// reviewInputKey is a key on the note line: enter adds the note, esc
// drops it.
func (m *Model) reviewInputKey(k tea.Key, name string) {
	rv := m.review
	x := rv.input
	switch name {
	case "enter":
		rv.input = nil
		text := strings.TrimSpace(string(x.text))
		if text == "" {
			m.say("review: an empty note is not added")
			return
		}
		p := rv.noteOn // where: a line or a hunk
		p.Action, p.Session, p.Window, p.Text, p.HumanNonce = "add", rv.session, rv.window, text, m.nonce
		m.call("review-note", p, tagReviewNote+rv.window)
	case "esc", "ctrl+c":
		rv.input = nil
	default:
		x.edit(k, name)
	}
}

// reviewPaste takes a paste while the review is open: into the note line,
// else nowhere (never the pane under the overlay).
func (m *Model) reviewPaste(text string) {
	if cv := m.review.compare; cv != nil {
		if cv.input != nil {
			cv.input.add(text)
		}
		return
	}
	if x := m.review.input; x != nil {
		x.add(text)
	}
}

// reviewReply takes the daemon's answers to the overlay's calls.
func (m *Model) reviewReply(r replyMsg) tea.Cmd {
	rv := m.review
	var tag, window string
	for _, t := range []string{tagReviewDiff, tagReviewNote, tagReviewSend, tagCompare, tagVerify, tagKeep} {
		if strings.HasPrefix(r.tag, t) {
			tag, window = t, r.tag[len(t):]
		}
	}
	if rv == nil || window != rv.window {
		return nil // closed, or another pane's review now
	}
	switch tag {
	case tagCompare, tagVerify, tagKeep:
		return m.compareReply(tag, r) // review_compare.go
	}
	if r.err != nil {
		msg := clean(r.err.Error())
		if tag == tagReviewDiff && !rv.loaded {
			rv.err = msg
		}
		m.say("review: %s", msg)
		return nil
	}
	switch tag {
	case tagReviewDiff:
		var d reviewDiff
		if err := json.Unmarshal(r.raw, &d); err != nil {
			rv.err = "the daemon's diff could not be read: " + err.Error()
			return nil
		}
		first := !rv.loaded
		rv.d, rv.loaded, rv.err, rv.laid = d, true, "", nil
		if d.Name != "" {
			rv.name = clean(d.Name)
		}
		if rv.file >= len(d.Files) {
			rv.file = max(len(d.Files)-1, 0)
		}
		rows := m.reviewRows()
		if first || rv.cur >= len(rows) {
			rv.cur, rv.top = firstSelectable(rows), 0
		}
	case tagReviewNote:
		var res proto.ReviewNotes
		if err := json.Unmarshal(r.raw, &res); err == nil {
			rv.d.Notes, rv.laid = res.Notes, nil
			review.SortNotes(rv.d.Notes)
			m.say("review: note %s added; S sends the unsent notes to the agent", clean(res.ID))
		}
	case tagReviewSend:
		var res proto.ReviewSent
		_ = json.Unmarshal(r.raw, &res)
		what := "1 note"
		if res.Notes != 1 {
			what = fmt.Sprintf("%d notes", res.Notes)
		}
		m.say("review: sent %s to %s as one message: it is typed when the agent is at rest", what, rv.name)
		m.fetchReview() // the notes are marked sent
	}
	return nil
}

// selectedFile is the file whose diff is shown.
func (rv *reviewView) selectedFile() (review.File, bool) {
	if rv.file < 0 || rv.file >= len(rv.d.Files) {
		return review.File{}, false
	}
	return rv.d.Files[rv.file], true
}

// unsent counts the notes not yet sent.
func (rv *reviewView) unsent() int {
	n := 0
	for _, x := range rv.d.Notes {
		if x.SentAt == 0 {
			n++
		}
	}
	return n
}

// reviewMouse takes the mouse while the review is open: the wheel moves
// the part that has the keys, nothing reaches the panes under it.
func (m *Model) reviewMouse(ms tea.MouseMsg) {
	w, ok := ms.(tea.MouseWheelMsg)
	if !ok {
		return
	}
	switch w.Button {
	case tea.MouseWheelUp:
		m.reviewMove(-1, m.reviewBodyRows())
	case tea.MouseWheelDown:
		m.reviewMove(1, m.reviewBodyRows())
	}
}
