package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

type call struct {
	verb   string
	params map[string]any // sent's params by wire name, as paramsOf reads them
	tag    string
	sent   any // the params as the model passed them
}

type fakeCalls struct {
	calls    []call
	switched string
}

func (f *fakeCalls) Call(verb string, params any, tag string) {
	f.calls = append(f.calls, call{verb, paramsOf(params), tag, params})
}
func (f *fakeCalls) Switch(s string, cols, rows int) { f.switched = s }

func (f *fakeCalls) last(t *testing.T, verb string) call {
	t.Helper()
	for i := len(f.calls) - 1; i >= 0; i-- {
		if f.calls[i].verb == verb {
			return f.calls[i]
		}
	}
	t.Fatalf("no %s call in %+v", verb, f.calls)
	return call{}
}

func newTest(t *testing.T, opt Options) (*Model, *fakeCalls, *fakeClock) {
	t.Helper()
	clk := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	opt.Clock = clk
	fc := &fakeCalls{}
	m := NewModel(opt, fc, 104, 20)
	m.Update(attachedMsg{nonce: "N1", session: "work"})
	// 104 cols: 24 rail + 80 area; 20 rows: 19 area + dock.
	m.Update(proto.AttachLayout{Type: "layout", Session: "work", Workspace: 1, Focused: "w1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{
			{ID: "w1", Index: 0, Name: "shell", X: 0, Y: 0, Width: 40, Height: 19},
			{ID: "w2", Index: 1, Name: "claude", X: 40, Y: 0, Width: 40, Height: 19, State: "needs_input"},
		},
		Workspaces: []proto.AttachWorkspace{{N: 1, Windows: 2}},
		Sessions:   []proto.AttachSession{{Name: "api", Windows: 1, State: "working"}, {Name: "work", Windows: 2, State: "needs_input", Current: true}},
		Agents: []proto.AttachAgent{
			{Session: "work", Window: "w2", Name: "claude", State: "needs_input", Message: "Allow \x1b[31mBash\x07?"},
			{Session: "api", Window: "w9", Name: "codex", State: "working", Message: "tests"},
		},
		AgentsSeen: true})
	m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: 40, Rows: 18, Full: true,
		Lines:  []proto.AttachLine{{Y: 0, Text: "$ echo hi" + strings.Repeat(" ", 31)}, {Y: 1, Text: "\x1b[32mhi\x1b[m" + strings.Repeat(" ", 38)}},
		Cursor: proto.AttachCursor{X: 2, Y: 2, Visible: true}})
	return m, fc, clk
}

func plain(m *Model) []string { return strings.Split(ansi.Strip(m.Render()), "\n") }

func key(s string) tea.KeyPressMsg {
	switch s {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	if strings.HasPrefix(s, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func TestTitleBarsRailAndPane(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	rows := plain(m)
	if len(rows) != 20 {
		t.Fatalf("%d rows, want 20", len(rows))
	}
	if !strings.Contains(rows[0], "0:shell") || !strings.Contains(rows[0], "▲ 1:claude  needs input") {
		t.Errorf("title row: %q", rows[0])
	}
	if got := rows[1][len(" Sessions"):]; !strings.Contains(rows[2], "hi") && got == "" {
		t.Errorf("pane row: %q", rows[2])
	}
	if !strings.HasPrefix(strings.TrimLeft(rows[2], " "), "") || !strings.Contains(rows[2], "│hi") {
		t.Errorf("pane row 2 should start at the area's edge: %q", rows[2])
	}
	// Rail: sessions in the order given, the current one marked, then
	// agents in the order given, their messages cleaned.
	if !strings.HasPrefix(rows[1], " ● api 1") || !strings.HasPrefix(rows[2], ">▲ work 2") {
		t.Errorf("rail sessions: %q / %q", rows[1], rows[2])
	}
	if !strings.Contains(rows[4], "Agents") || !strings.HasPrefix(rows[5], " ▲ claude Allow Bash?") || !strings.HasPrefix(rows[6], " ● codex tests") {
		t.Errorf("rail agents: %q %q %q", rows[4], rows[5], rows[6])
	}
	if strings.ContainsAny(m.Render(), "\x07") {
		t.Error("a BEL from pane text reached the screen")
	}
	// The focused bar is reverse video and bold, the other is not.
	if !hasAttrs(m, 0, " 0:shell", vt.AttrReverse|vt.AttrBold) || hasAttrs(m, 0, " 1:claude", vt.AttrReverse) {
		t.Errorf("focused bar not highlighted: %q", strings.Split(m.Render(), "\n")[0])
	}
	if c := m.cursor(); c == nil || c.X != 24+2 || c.Y != 1+2 {
		t.Errorf("cursor %+v, want 26,3", c)
	}
	if !strings.HasPrefix(rows[19], "[work] 1*") {
		t.Errorf("dock: %q", rows[19])
	}
}

func TestASCIIOnly(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{ASCIIOnly: true})
	out := m.Render()
	if strings.ContainsAny(out, "▲●│■×○□…") {
		t.Errorf("non-ASCII glyph in ASCII mode:\n%s", ansi.Strip(out))
	}
	rows := plain(m)
	if !strings.Contains(rows[0], "! 1:claude  needs input") || !strings.HasPrefix(rows[2], ">! work 2") {
		t.Errorf("ascii rows: %q / %q", rows[0], rows[2])
	}
}

func TestAgentsHidden(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{AgentsOff: true})
	out := ansi.Strip(m.Render())
	if strings.Contains(out, "▲") || strings.Contains(out, "Agents") || strings.Contains(out, "needs input") {
		t.Errorf("agent UI shown with agents off:\n%s", out)
	}
}

func TestNarrowHidesRail(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 10})
	c := fc.last(t, "resize")
	if c.params["cols"] != 50 || c.params["rows"] != 9 {
		t.Errorf("resize %v, want 50x9", c.params)
	}
	if strings.Contains(plain(m)[1], "Sessions") {
		t.Error("rail drawn on a narrow terminal")
	}
}

func TestKeysGoToFocusedPane(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("l"))
	c := fc.last(t, "send-text")
	if c.params["window"] != "w1" || c.params["text"] != "l" || c.params["session"] != "work" {
		t.Errorf("send-text %v", c.params)
	}
	m.Update(key("up"))
	if got := fc.last(t, "send-text").params["text"]; got != "\x1b[A" {
		t.Errorf("up = %q", got)
	}
	m.panes["w1"].modes.AppCursor = true
	m.Update(key("up"))
	if got := fc.last(t, "send-text").params["text"]; got != "\x1bOA" {
		t.Errorf("up in app-cursor mode = %q", got)
	}
	m.Update(key("ctrl+c"))
	if got := fc.last(t, "send-text").params["text"]; got != "\x03" {
		t.Errorf("ctrl+c = %q", got)
	}
	m.Update(tea.PasteMsg{Content: "a\x1b[201~b"})
	if got := fc.last(t, "send-text").params["text"]; got != "a\x1b[201~b" {
		t.Errorf("paste without bracketed mode = %q", got)
	}
	m.panes["w1"].modes.BracketedPaste = true
	m.Update(tea.PasteMsg{Content: "a\x1b[201~b"})
	if got := fc.last(t, "send-text").params["text"]; got != "\x1b[200~ab\x1b[201~" {
		t.Errorf("bracketed paste = %q", got)
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	n := len(fc.calls)
	m.Update(key("ctrl+b"))
	if len(fc.calls) != n || !m.prefix {
		t.Fatal("the prefix was typed into the pane")
	}
	m.Update(key("ctrl+b"))
	if got := fc.last(t, "send-text").params["text"]; got != "\x02" {
		t.Errorf("prefix twice = %q", got)
	}
	m.Update(key("ctrl+b"))
	m.Update(key("c"))
	fc.last(t, "new-window")
	m.Update(key("ctrl+b"))
	m.Update(key("3"))
	if fc.last(t, "select-workspace").params["workspace"] != 3 {
		t.Error("prefix 3")
	}
	m.Update(key("ctrl+b"))
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if fc.last(t, "focus-window").params["window"] != "w2" {
		t.Error("prefix right did not focus w2")
	}
	m.Update(key("ctrl+b"))
	m.Update(key("n"))
	if fc.last(t, "run-command").params["command"] != "FocusNext" {
		t.Error("prefix n")
	}
	m.Update(key("ctrl+b"))
	m.Update(key("x"))
	if !strings.Contains(plain(m)[19], "close window claude? (y/n)") {
		t.Errorf("no confirm: %q", plain(m)[19])
	}
	m.Update(key("y"))
	if fc.last(t, "close-window").params["window"] != "w2" {
		t.Error("close")
	}
	m.Update(key("ctrl+b"))
	_, cmd := m.Update(key("d"))
	if cmd == nil || m.Outcome() == nil || m.Outcome().Message != "[detached (from session work)]" {
		t.Errorf("detach outcome %+v", m.Outcome())
	}
}

func TestPrefixRebound(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{Prefix: "ctrl+a", Bindings: map[string]string{ActDetach: "q"}})
	m.Update(key("ctrl+b"))
	if got := fc.last(t, "send-text").params["text"]; got != "\x02" {
		t.Errorf("ctrl+b with prefix ctrl+a = %q", got)
	}
	m.Update(key("ctrl+a"))
	m.Update(key("q"))
	if m.Outcome() == nil {
		t.Error("rebound detach did not detach")
	}
}

func TestMouse(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	// A click on the other tile focuses it and types nothing.
	m.Update(tea.MouseClickMsg{X: 24 + 45, Y: 5, Button: tea.MouseLeft})
	if fc.last(t, "focus-window").params["window"] != "w2" {
		t.Fatal("click did not focus w2")
	}
	m.layout.Focused = "w2"
	m.Update(proto.AttachScreen{Window: "w2", Cols: 40, Rows: 18, Full: true, Modes: proto.AttachModes{Mouse: "normal", MouseSGR: true}})
	m.Update(tea.MouseClickMsg{X: 24 + 45, Y: 5, Button: tea.MouseLeft})
	if got := fc.last(t, "send-text").params["text"]; got != "\x1b[<0;6;5M" {
		t.Errorf("SGR click = %q, want pane cell 6,5", got)
	}
	m.panes["w2"].modes.MouseSGR = false
	m.Update(tea.MouseReleaseMsg{X: 24 + 40, Y: 1, Button: tea.MouseLeft})
	if got := fc.last(t, "send-text").params["text"]; got != "\x1b[M#!!" {
		t.Errorf("X10 release = %q", got)
	}
}

func TestAlerts(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bell: true, Notify: true})
	l := m.layout
	l.Agents = []proto.AttachAgent{{Session: "api", Window: "w9", Name: "codex", State: "errored"}}
	_, cmd := m.Update(l)
	if cmd == nil {
		t.Fatal("no alert")
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok || raw.Msg != "\a\x1b]9;codex in api stopped on an error\a" {
		t.Errorf("alert = %#v", cmd())
	}
	if !strings.Contains(plain(m)[19], "codex in api stopped on an error") {
		t.Errorf("dock %q", plain(m)[19])
	}
	// The focused pane of this session raises nothing.
	l.Agents = []proto.AttachAgent{{Session: "work", Window: "w1", Name: "sh", State: "done"}}
	if _, cmd := m.Update(l); cmd != nil {
		t.Error("alert for the focused pane")
	}
}

func reply(tag string, v any) replyMsg {
	b, _ := json.Marshal(v)
	return replyMsg{tag: tag, raw: b}
}

func TestInbox(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	fc.last(t, "list-attention")
	since := clk.t.Add(-35 * time.Second).UnixNano()
	m.Update(reply("inbox:list", map[string]any{
		"items": []map[string]any{
			{"id": "2", "kind": "approval", "session": "work", "window": "w2", "name": "claude", "summary": "approve Bash: make", "since": since, "seq": 4},
			{"id": "3", "kind": "errored", "session": "api", "window": "w9", "name": "codex", "summary": "boom", "since": since, "seq": 5,
				"risk": []map[string]string{{"rule": "x", "why": "y"}}},
		},
		"counts": map[string]int{"approval": 1, "errored": 1}}))
	rows := plain(m)
	joined := strings.Join(rows, "\n")
	for _, want := range []string{"Inbox  2 waiting", "Approvals (1)", "> ▲   35s  work/claude  approve Bash: make", "Errored (1)", "×   35s  api/codex  risky: boom"} {
		if !strings.Contains(joined, want) {
			t.Errorf("inbox lacks %q:\n%s", want, joined)
		}
	}
	m.Update(key("j"))
	m.Update(key("d"))
	c := fc.last(t, "dismiss-attention")
	if c.params["id"] != "3" || c.params["human_nonce"] != "N1" {
		t.Errorf("dismiss %v", c.params)
	}
	m.Update(key("k"))
	m.Update(key("z"))
	m.Update(key("1")) // z asks for how long: 1 is 15 minutes
	if c := fc.last(t, "mark-attention"); c.params["action"] != "snooze" || c.params["for_ms"] != int64(900000) {
		t.Errorf("snooze %v", c.params)
	}

	// Peek, then the digit guard: a digit before 0.4 s does nothing.
	m.Update(key("space"))
	fc.last(t, "peek-prompt")
	m.Update(reply("inbox:peek", map[string]any{"session": "work", "window": "w2", "name": "claude", "state": "needs_input",
		"prompt_id": "p1", "lines": []string{"Run make?"}, "options": []map[string]any{{"n": 1, "label": "Yes"}, {"n": 2, "label": "No"}},
		"actions": []string{"choose", "deny"}, "answerable": true}))
	if !strings.Contains(strings.Join(plain(m), "\n"), "1. Yes") {
		t.Errorf("peek:\n%s", strings.Join(plain(m), "\n"))
	}
	n := len(fc.calls)
	clk.t = clk.t.Add(300 * time.Millisecond)
	if _, cmd := m.Update(key("1")); cmd == nil || len(fc.calls) != n {
		t.Fatal("a digit acted before the dwell (or armed no timer)")
	}
	clk.t = clk.t.Add(150 * time.Millisecond)
	m.Update(key("1"))
	c = fc.last(t, "respond")
	if c.params["action"] != "choose" || c.params["value"] != "1" || c.params["prompt_id"] != "p1" || c.params["human_nonce"] != "N1" {
		t.Errorf("respond %v", c.params)
	}
	// A risky prompt: the daemon refuses, the second press within 3 s acks.
	m.Update(replyMsg{tag: "inbox:respond:1", err: &proto.Error{Code: "risk_unacknowledged", Message: "risky",
		Hint: &proto.Hint{Accepted: []string{"recursive delete"}}}})
	if !strings.Contains(strings.Join(plain(m), "\n"), "risky: recursive delete. Press 1 again by") {
		t.Errorf("no risk note:\n%s", strings.Join(plain(m), "\n"))
	}
	clk.t = clk.t.Add(time.Second)
	m.Update(key("1"))
	c = fc.last(t, "respond")
	if ack, _ := c.params["risk_ack"].([]string); len(ack) != 1 || ack[0] != "recursive delete" {
		t.Errorf("second press %v", c.params)
	}
	m.Update(reply("inbox:respond:1", map[string]any{"sent": "1", "state": "working", "window": "w2"}))
	if !strings.Contains(plain(m)[19], `Sent "1" to claude; it is working now`) {
		t.Errorf("dock %q", plain(m)[19])
	}
	m.Update(key("q"))
	if m.inbox != nil {
		t.Error("q did not close the inbox")
	}
}

func TestDaemonGoneAndEnd(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.Update(streamGoneMsg{})
	if o := m.Outcome(); o == nil || o.Code != 1 || o.Err != ErrDaemonGone {
		t.Errorf("outcome %+v", o)
	}
	m, _, _ = newTest(t, Options{})
	m.Update(proto.AttachEnd{Type: "detached", Reason: "session-closed"})
	if o := m.Outcome(); o == nil || o.Code != 0 || !strings.Contains(o.Message, "work") {
		t.Errorf("outcome %+v", o)
	}
}

func TestScrollback(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("["))
	c := fc.last(t, "capture-pane")
	if c.params["scrollback"] != true || c.params["ansi"] != true {
		t.Errorf("capture %v", c.params)
	}
	m.Render()
	var lines []string
	for i := range 50 {
		lines = append(lines, "line "+string(rune('A'+i%26)))
	}
	m.Update(reply("scrollback", map[string]any{"content": strings.Join(lines, "\n")}))
	if !strings.Contains(plain(m)[18], "line X") {
		t.Errorf("last row %q", plain(m)[18])
	}
	m.Update(key("v"))
	m.Update(key("up"))
	_, cmd := m.Update(key("y"))
	if cmd == nil || m.scroll != nil {
		t.Error("y did not copy and leave")
	}
}

func TestCoalesce(t *testing.T) {
	t.Parallel()
	in := []request{
		{verb: "send-text", params: proto.SendTextParams{Session: "s", Window: "a", Text: "e"}},
		{verb: "send-text", params: proto.SendTextParams{Session: "s", Window: "a", Text: "c"}},
		{verb: "focus-window", params: proto.FocusWindowParams{Window: "b"}},
		{verb: "send-text", params: proto.SendTextParams{Session: "s", Window: "b", Text: "x"}},
	}
	out := coalesce(in)
	if len(out) != 3 || out[0].params.(proto.SendTextParams).Text != "ec" || out[2].params.(proto.SendTextParams).Text != "x" {
		t.Errorf("coalesce %+v", out)
	}
}

// answered is what the client gets once a switch it asked for is
// answered: the new stream's attached line, then its first layout (here
// the layout in hand, as session's). Input typed after the switch was
// asked waits for it.
func answered(m *Model, session string) {
	m.Update(attachedMsg{session: session})
	l := m.layout
	l.Session = session
	m.Update(l)
}
