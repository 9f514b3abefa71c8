package tui

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// clipboardOf runs a copy's command and returns the text its OSC 52
// sets, failing when it writes anything else.
func clipboardOf(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command: nothing reaches the terminal")
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok {
		t.Fatalf("the copy is not written to the terminal itself: %T", cmd())
	}
	seq := fmt.Sprint(raw.Msg)
	b64, ok := strings.CutPrefix(seq, "\x1b]52;c;")
	if !ok || !strings.HasSuffix(b64, "\a") {
		t.Fatalf("not an OSC 52: %q", seq)
	}
	text, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(b64, "\a"))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// openCopy opens copy mode on w1 with lines of history.
func openCopy(t *testing.T, m *Model, lines []string) {
	t.Helper()
	m.Update(key("ctrl+b"))
	m.Update(key("["))
	m.Render() // the view tells copy mode its height
	m.Update(reply("scrollback", map[string]any{"content": strings.Join(lines, "\n")}))
	m.Render()
}

func numbered(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("line %03d", i))
	}
	return out
}

var (
	pgUp   = tea.KeyPressMsg{Code: tea.KeyPgUp}
	pgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// ctrl+b pages up in copy mode when it is not the prefix (the prefix
// comes first, as in tmux), and the help says which it is.
func TestCopyModeCtrlBWhenNotThePrefix(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	if help := strings.Join(stripAll(m.helpLines(100)), "\n"); !strings.Contains(help, "pgup            a page up") {
		t.Errorf("with prefix ctrl+b, copy mode's page up:\n%s", help)
	}
	m, _, _ = newTest(t, Options{Prefix: "ctrl+a"})
	m.Update(key("ctrl+a"))
	m.Update(key("["))
	m.Render()
	m.Update(reply("scrollback", map[string]any{"content": strings.Join(numbered(100), "\n")}))
	m.Update(key("ctrl+b"))
	if row := plain(m)[1]; !strings.Contains(row, "line 064") {
		t.Errorf("ctrl+b with prefix ctrl+a: %q", row)
	}
	if help := strings.Join(stripAll(m.helpLines(100)), "\n"); !strings.Contains(help, "pgup ctrl+b     a page up") {
		t.Errorf("with prefix ctrl+a, copy mode's page up:\n%s", help)
	}
}

// The first page key moves a whole page, as every one after it does;
// the cursor keeps its row on the screen, and at the top it goes on to
// the first line.
func TestCopyModePagesAWholePageEveryTime(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	openCopy(t, m, numbered(100))
	// The tile shows 18 history lines: 82 to 99.
	if row := plain(m)[1]; !strings.Contains(row, "line 082") {
		t.Fatalf("first row before: %q", row)
	}
	m.Update(pgUp)
	if row := plain(m)[1]; !strings.Contains(row, "line 064") {
		t.Errorf("after one PgUp: %q", row)
	}
	m.Update(pgUp)
	if row := plain(m)[1]; !strings.Contains(row, "line 046") || m.scroll.cur != 63 {
		t.Errorf("after two PgUp: %q, cursor %d", row, m.scroll.cur)
	}
	m.Update(key("ctrl+f"))
	if row := plain(m)[1]; !strings.Contains(row, "line 064") {
		t.Errorf("ctrl+f: %q", row)
	}
	m.Update(key("ctrl+u"))
	if row := plain(m)[1]; !strings.Contains(row, "line 055") {
		t.Errorf("ctrl+u (half a page): %q", row)
	}
	m.Update(pgUp)
	m.Update(pgUp)
	m.Update(pgUp)
	m.Update(pgUp)
	if row := plain(m)[1]; !strings.Contains(row, "line 000") || m.scroll.cur != 0 {
		t.Errorf("at the top: %q, cursor %d", row, m.scroll.cur)
	}
	m.Update(pgDown)
	if row := plain(m)[1]; !strings.Contains(row, "line 018") {
		t.Errorf("PgDn from the top: %q", row)
	}
}

// v selects from the cursor cell; the selection is drawn in reverse
// video; y copies it to the terminal (OSC 52) and to the paste buffer,
// and the dock says so.
func TestCopyModeSelectsAndCopies(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	openCopy(t, m, []string{"alpha beta gamma", "delta \x1b[31mepsilon\x1b[m zeta", "eta"})
	m.Update(key("g"))
	m.Update(key("w"))
	if m.scroll.col != 6 {
		t.Fatalf("w: column %d, want 6", m.scroll.col)
	}
	m.Update(key("v"))
	m.Update(key("j"))
	m.Update(key("w")) // on z of zeta
	m.Update(key("h"))
	m.Update(key("h"))
	// The selection is the theme's (reverse video), its cells' own
	// colours dropped; the cells around keep theirs.
	if st, _ := styleOf(m, 2, "epsilon"); !hasAttrs(m, 1, "beta gamma", vt.AttrReverse) || hasAttrs(m, 1, "alpha", vt.AttrReverse) ||
		!hasAttrs(m, 2, "delta epsilon", vt.AttrReverse) || st != selectStyle() || hasAttrs(m, 2, "zeta", vt.AttrReverse) {
		raw := strings.Split(m.Render(), "\n")
		t.Errorf("the selection is not drawn reversed:\n%q\n%q", raw[1], raw[2])
	}
	_, cmd := m.Update(key("y"))
	want := "beta gamma\ndelta epsilon"
	if got := clipboardOf(t, cmd); got != want {
		t.Errorf("copied %q, want %q", got, want)
	}
	if m.keyUI.paste != want || m.scroll != nil || !strings.Contains(m.dock, "copied 2 lines") {
		t.Errorf("buffer %q, copy mode %v, dock %q", m.keyUI.paste, m.scroll != nil, m.dock)
	}

	// V takes whole lines; / finds and puts the cursor on the match.
	openCopy(t, m, []string{"one two", "three four", "five"})
	m.Update(key("/"))
	typeText(m, "four")
	m.Update(key("enter"))
	if m.scroll.cur != 1 || m.scroll.col != 6 {
		t.Fatalf("search: line %d column %d", m.scroll.cur, m.scroll.col)
	}
	m.Update(key("V"))
	m.Update(key("k"))
	_, cmd = m.Update(key("y"))
	if got := clipboardOf(t, cmd); got != "one two\nthree four" {
		t.Errorf("V copied %q", got)
	}

	// y with nothing selected copies nothing and says how.
	openCopy(t, m, []string{"x"})
	if _, cmd := m.Update(key("y")); cmd != nil || !strings.Contains(m.dock, "nothing selected") {
		t.Errorf("y without a selection: %v %q", cmd, m.dock)
	}
}

// prefix ] types the buffer into the focused pane: bracketed when its
// program asked for it, newlines as carriage returns either way.
func TestPasteBuffer(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("]"))
	if !strings.Contains(m.dock, "nothing copied yet: prefix [, v, move, y") {
		t.Errorf("empty buffer: %q", m.dock)
	}
	m.keyUI.paste = "one\ntwo"
	m.Update(key("ctrl+b"))
	m.Update(key("]"))
	if c := fc.last(t, "send-text"); c.params["window"] != "w1" || c.params["text"] != "one\rtwo" {
		t.Errorf("plain paste %+v", c.params)
	}
	m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: 40, Rows: 18, Modes: proto.AttachModes{BracketedPaste: true}})
	m.Update(key("ctrl+b"))
	m.Update(key("]"))
	if c := fc.last(t, "send-text"); c.params["text"] != "\x1b[200~one\rtwo\x1b[201~" {
		t.Errorf("bracketed paste %q", c.params["text"])
	}
	// Control characters never make it into the buffer.
	m.copied("a\x03b\x1b[201~c\td\u009be")
	if m.keyUI.paste != "ab[201~c\tde" {
		t.Errorf("the buffer kept control characters: %q", m.keyUI.paste)
	}
	// A program cannot paste the person's buffer by sending the chord.
	n := len(fc.calls)
	m.Update(proto.AttachKeys{Type: "keys", Window: "w1", Keys: []string{"ctrl+b", "]"}})
	if len(fc.calls) != n || !strings.Contains(m.dock, "only you paste") {
		t.Errorf("a program's prefix ] pasted: %+v, dock %q", fc.calls[n:], m.dock)
	}
}

// A drag over a pane that did not ask for the mouse selects its text,
// drawn reversed, and the release copies it; over a pane that asked
// for the mouse the drag is the program's, unless shift is held.
func TestMouseDragSelects(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	// w1's pane starts at column 24, row 1: "$ echo hi", then "hi".
	m.Update(tea.MouseClickMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft})
	m.Update(tea.MouseMotionMsg{X: 24 + 1, Y: 2, Button: tea.MouseLeft})
	if !hasAttrs(m, 1, "echo hi", vt.AttrReverse) || hasAttrs(m, 1, "$", vt.AttrReverse) || !hasAttrs(m, 2, "hi", vt.AttrReverse) {
		raw := strings.Split(m.Render(), "\n")
		t.Errorf("the drag is not drawn reversed:\n%q\n%q", raw[1], raw[2])
	}
	_, cmd := m.Update(tea.MouseReleaseMsg{X: 24 + 1, Y: 2, Button: tea.MouseLeft})
	if got := clipboardOf(t, cmd); got != "echo hi\nhi" {
		t.Errorf("copied %q", got)
	}
	if m.keyUI.sel == nil {
		t.Error("the selection is gone at the release; it stays until a key")
	}
	m.Update(key("a"))
	if m.keyUI.sel != nil {
		t.Error("a key left the selection drawn")
	}
	for _, c := range fc.calls {
		if c.verb == "send-text" && strings.Contains(fmt.Sprint(c.params["text"]), "\x1b[<") {
			t.Errorf("a mouse report reached a pane that asked for none: %+v", c)
		}
	}

	// The program asked for the mouse: a plain drag is its own.
	m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: 40, Rows: 18, Modes: proto.AttachModes{Mouse: "button", MouseSGR: true}})
	n := len(fc.calls)
	m.Update(tea.MouseClickMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft})
	if m.keyUI.sel != nil || len(fc.calls) == n || fc.calls[n].params["text"] != "\x1b[<0;3;1M" {
		t.Fatalf("a press in a mouse program: selection %v, calls %+v", m.keyUI.sel, fc.calls[n:])
	}
	m.Update(tea.MouseReleaseMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft})
	// With shift it is the person's selection, and the program gets nothing.
	n = len(fc.calls)
	m.Update(tea.MouseClickMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft, Mod: tea.ModShift})
	m.Update(tea.MouseMotionMsg{X: 24 + 5, Y: 1, Button: tea.MouseLeft, Mod: tea.ModShift})
	_, cmd = m.Update(tea.MouseReleaseMsg{X: 24 + 5, Y: 1, Button: tea.MouseLeft, Mod: tea.ModShift})
	if got := clipboardOf(t, cmd); got != "echo" {
		t.Errorf("shift+drag copied %q", got)
	}
	if len(fc.calls) != n {
		t.Errorf("the program got the shift+drag: %+v", fc.calls[n:])
	}
	// A click without a drag selects nothing.
	m.Update(tea.MouseClickMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft, Mod: tea.ModShift})
	if _, cmd := m.Update(tea.MouseReleaseMsg{X: 24 + 2, Y: 1, Button: tea.MouseLeft, Mod: tea.ModShift}); cmd != nil || m.keyUI.sel != nil {
		t.Errorf("a click copied or selected: %v %+v", cmd, m.keyUI.sel)
	}
}

// In copy mode a drag selects in the history, and the release copies
// and leaves.
func TestCopyModeMouseDrag(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	openCopy(t, m, []string{"first line", "second line"})
	// Two lines: they are the tile's first two rows.
	m.Update(tea.MouseClickMsg{X: 24 + 6, Y: 1, Button: tea.MouseLeft})
	m.Update(tea.MouseMotionMsg{X: 24 + 5, Y: 2, Button: tea.MouseLeft})
	_, cmd := m.Update(tea.MouseReleaseMsg{X: 24 + 5, Y: 2, Button: tea.MouseLeft})
	if got := clipboardOf(t, cmd); got != "line\nsecond" {
		t.Errorf("copied %q", got)
	}
	if m.scroll != nil {
		t.Error("the release did not leave copy mode")
	}
}

// prefix ? lists every mode's keys over the area; it scrolls, and esc
// closes it without typing into the pane.
func TestHelpScreen(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("?"))
	s := screenText(m)
	for _, want := range []string{"Keys", "Window mode: after the prefix, ctrl+b", "c               open a window", "more below"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
	if m.cursor() != nil {
		t.Error("the pane's cursor shows over the help")
	}
	m.Update(key("G"))
	if s := screenText(m); !strings.Contains(s, "an agent row: review its changes") || !strings.Contains(s, " end") {
		t.Errorf("the end of the help:\n%s", s)
	}
	n := len(fc.calls)
	m.Update(key("esc"))
	if m.keyUI.help != nil || len(fc.calls) != n {
		t.Errorf("esc: help %v, calls %+v", m.keyUI.help, fc.calls[n:])
	}
	// A tiny terminal still draws it, every row its width.
	m.Update(key("ctrl+b"))
	m.Update(key("?"))
	m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
	for i, row := range plain(m) {
		if w := ansi.StringWidth(row); w != 20 {
			t.Errorf("row %d of the help at 20x5 is %d wide: %q", i, w, row)
		}
	}
	m.Update(key("q"))
	m.Update(tea.WindowSizeMsg{Width: 104, Height: 20})
	// The prefix works through it.
	m.Update(key("ctrl+b"))
	m.Update(key("?"))
	m.Update(key("ctrl+b"))
	m.Update(key("c"))
	if m.keyUI.help != nil || fc.last(t, "new-window").verb != "new-window" {
		t.Error("prefix c from the help")
	}
}

// prefix b hides the rail: the area grows and the daemon is told; again
// shows it. [ui] rail = "off" starts hidden.
func TestToggleRail(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("b"))
	if c := fc.last(t, "resize"); c.params["cols"] != 104 {
		t.Errorf("resize after hiding: %+v", c.params)
	}
	if row := plain(m)[1]; strings.Contains(row, "Sessions") || strings.Contains(row, "api") {
		t.Errorf("the rail is still drawn: %q", row)
	}
	m.Update(key("ctrl+b"))
	m.Update(key("b"))
	if c := fc.last(t, "resize"); c.params["cols"] != 80 {
		t.Errorf("resize after showing: %+v", c.params)
	}
	m2, _, _ := newTest(t, Options{RailOff: true})
	if cols, _ := m2.AreaSize(); cols != 104 {
		t.Errorf("rail off: area %d columns", cols)
	}
	// The rail cursor shows a hidden rail.
	m2.Update(key("ctrl+b"))
	m2.Update(key("s"))
	if cols, _ := m2.AreaSize(); cols != 80 || !m2.railOn {
		t.Errorf("prefix s on a hidden rail: area %d, cursor %v", cols, m2.railOn)
	}
}

// An empty workspace says how to open a window, with the real prefix.
func TestEmptyWorkspaceSaysHow(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Prefix: "ctrl+a"})
	m.Update(proto.AttachLayout{Type: "layout", Session: "work", Workspace: 2, Cols: 80, Rows: 19,
		Workspaces: []proto.AttachWorkspace{{N: 1, Windows: 2}, {N: 2}}})
	s := screenText(m)
	for _, want := range []string{"No windows in this workspace.", "ctrl+a c  open a window here", "ctrl+a 1  workspace 1 (2 windows)", "ctrl+a ?  every key", "tuios new-window -s work"} {
		if !strings.Contains(s, want) {
			t.Errorf("empty workspace lacks %q:\n%s", want, s)
		}
	}
}

// % and " split the focused window, side by side and stacked.
func TestSplitKeys(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("%"))
	if c := fc.last(t, "split-window"); c.params["window"] != "w1" || c.params["direction"] != "vertical" {
		t.Errorf("%% : %+v", c.params)
	}
	m.Update(key("ctrl+b"))
	m.Update(key(`"`))
	if c := fc.last(t, "split-window"); c.params["direction"] != "horizontal" {
		t.Errorf(`" : %+v`, c.params)
	}
}

// The Inbox's footer names the keys bound now.
func TestInboxFooterFollowsBindings(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bindings: map[string]string{InClose: "x", InDismiss: "D"}})
	m.openInbox()
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{{"id": "1", "kind": "finished", "session": "work", "window": "w2", "name": "claude", "summary": "done"}}}))
	m.width = 200 // the whole footer
	s := screenText(m)
	if !strings.Contains(s, "D dismiss") || !strings.Contains(s, "x close") || strings.Contains(s, "q close") || strings.Contains(s, "d dismiss") {
		t.Errorf("footer:\n%s", s)
	}
}

// BenchmarkRenderSelection is a frame with a mouse selection over a
// whole pane against the same frame without one.
func BenchmarkRenderSelection(b *testing.B) {
	for _, sel := range []bool{false, true} {
		b.Run(fmt.Sprintf("selection=%v", sel), func(b *testing.B) {
			m, _, _ := newTest(&testing.T{}, Options{})
			rows := make([]proto.AttachLine, 18)
			for y := range rows {
				rows[y] = proto.AttachLine{Y: y, Text: "\x1b[32m" + strings.Repeat("x", 20) + "\x1b[m" + strings.Repeat("y", 20)}
			}
			m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: 40, Rows: 18, Full: true, Lines: rows})
			if sel {
				m.keyUI.sel = &mouseSel{window: "w1", x0: 3, y0: 0, x1: 30, y1: 17}
			}
			b.ReportAllocs()
			for b.Loop() {
				m.Render()
			}
		})
	}
}
