package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// peekAt opens the Inbox on one approval and peeks at it with pk.
func peekAt(t *testing.T, m *Model, clk *fakeClock, pk map[string]any) {
	t.Helper()
	openWith(t, m, map[string]any{"id": "2", "kind": "approval", "session": "work", "window": "w2", "name": "claude",
		"summary": "approval: proceed?", "since": clk.t.Add(-time.Minute).UnixNano(), "seq": 1})
	m.Update(key("space"))
	m.Update(reply("inbox:peek", pk))
	clk.t = clk.t.Add(time.Second) // past the dwell
}

func claudePeek(actions []string, risk []string) map[string]any {
	return map[string]any{"session": "work", "window": "w2", "name": "claude", "state": "needs_input", "blocked": true,
		"waiting_ms": 65000, "prompt_id": "p1", "answerable": true, "actions": actions, "risk": risk,
		"lines":   []string{"│   rm -rf build/     │", "│ Do you want to proceed? │"},
		"options": []map[string]any{{"n": 1, "label": "Yes"}, {"n": 2, "label": "No, and tell Claude what to do differently (esc)", "deny": true}}}
}

// The footer offers the answers the prompt has: no A without an always
// option, the digits of its options; A then does nothing.
func TestPromptViewOffersOnlyItsAnswers(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	peekAt(t, m, clk, claudePeek([]string{"approve", "deny", "choose"}, nil))
	if f := footer(m); f != "1-2 choose  a approve  d deny  enter go to pane  r read again  esc back" {
		t.Errorf("footer %q", f)
	}
	s := screenText(m)
	for _, want := range []string{"claude (work) needs input, waiting 1m 06s", "│   rm -rf build/     │"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	for _, k := range []string{"A", "3", "9"} {
		m.Update(key(k))
	}
	if n := countCalls(fc, "respond"); n != 0 {
		t.Fatalf("a key the prompt does not offer answered it: %v", fc.last(t, "respond").params)
	}
	// With an always option, A is offered.
	m2, _, clk2 := newTest(t, Options{})
	peekAt(t, m2, clk2, claudePeek([]string{"approve", "approve_always", "deny", "choose"}, nil))
	if f := footer(m2); !strings.Contains(f, "A always") {
		t.Errorf("footer %q lacks A", f)
	}
	// Nothing read: only enter, r and esc.
	m3, fc3, clk3 := newTest(t, Options{})
	peekAt(t, m3, clk3, map[string]any{"session": "work", "window": "w2", "name": "st", "state": "needs_input", "blocked": true,
		"answerable": false, "reason": "no screen rule reads a prompt", "actions": []string{}})
	if f := footer(m3); f != "enter go to pane  r read again  esc back" {
		t.Errorf("footer %q", f)
	}
	for _, k := range []string{"1", "a", "A", "d"} {
		m3.Update(key(k))
	}
	if countCalls(fc3, "respond") != 0 {
		t.Error("an unanswerable prompt was answered")
	}
}

// On a risky prompt the "No" option denies with one press, and a refusal
// from an older daemon arms no allow; 1 (Yes) still needs two presses.
func TestPromptViewDenyOptionIsOnePress(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	peekAt(t, m, clk, claudePeek([]string{"approve", "deny", "choose"}, []string{"recursive delete"}))
	m.Update(key("2"))
	c := fc.last(t, "respond")
	if c.params["action"] != "choose" || c.params["value"] != "2" || c.params["risk_ack"] != nil {
		t.Errorf("2 sent %v", c.params)
	}
	if m.inbox.pending != nil {
		t.Error("a deny armed a second press")
	}
	m.Update(replyMsg{tag: "inbox:respond:2", err: &proto.Error{Code: "risk_unacknowledged", Message: "risky",
		Hint: &proto.Hint{Accepted: []string{"recursive delete"}}}})
	if m.inbox.pending != nil || strings.Contains(screenText(m), "Press 2 again") {
		t.Errorf("a refused deny turned into a risky allow:\n%s", screenText(m))
	}
	n := countCalls(fc, "respond")
	m.Update(key("1"))
	if countCalls(fc, "respond") != n || !strings.Contains(screenText(m), "Press 1 again") {
		t.Errorf("one press of a risky Yes sent it:\n%s", screenText(m))
	}
	m.Update(key("1"))
	if c := fc.last(t, "respond"); c.params["value"] != "1" || c.params["risk_ack"] == nil {
		t.Errorf("second press %v", c.params)
	}
}

func TestNineTomorrow(t *testing.T) {
	t.Parallel()
	loc := time.FixedZone("X", 3600)
	for _, now := range []time.Time{
		time.Date(2026, 12, 2, 8, 0, 0, 0, loc),
		time.Date(2026, 12, 31, 23, 59, 0, 0, loc),
	} {
		got := nineTomorrow(now)
		if got.Hour() != 9 || got.Minute() != 0 || got.Sub(now) <= 0 || got.Sub(now) > 26*time.Hour || got.Location() != loc {
			t.Errorf("nineTomorrow(%v) = %v", now, got)
		}
	}
}

func TestWaitWords(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 5 * time.Second: "5s", 65 * time.Second: "1m 05s",
		2*time.Hour + 10*time.Minute: "2h 10m", 50 * time.Hour: "2d 2h",
	} {
		if got := waitWords(d); got != want {
			t.Errorf("waitWords(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestScreenLineKeepsSpacing(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"│   rm -rf build/     │   ": "│   rm -rf build/     │",
		"\x1b[31mred\x1b[0m   text":  "red   text",
		"a\tb":                       "a       b",
		"evil\u202e\x07bell\r\nnext": "evilbellnext",
		"\xffbad":                    "bad",
		"wide 漢字\tx":                 "wide 漢字       x",
	} {
		if got := screenLine(in); got != want {
			t.Errorf("screenLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzScreenLine: whatever a pane holds, the line drawn has no control or
// format character and no escape, and no trailing space.
func FuzzScreenLine(f *testing.F) {
	for _, s := range []string{"│   a   │", "\x1b]0;title\x07x", "\t\t", "a\u200bb", "\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := screenLine(s)
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar && !strings.ContainsRune(s, unicode.ReplacementChar) {
				t.Fatalf("screenLine(%q) = %q holds %U", s, out, r)
			}
		}
		if strings.HasSuffix(out, " ") {
			t.Fatalf("screenLine(%q) = %q ends in a space", s, out)
		}
	})
}

// Tab types an answer when the prompt takes text, and only then.
func TestPromptViewTypedAnswer(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	peekAt(t, m, clk, claudePeek([]string{"choose", "text"}, nil))
	if f := footer(m); f != "1-2 choose  tab type an answer  enter go to pane  r read again  esc back" {
		t.Errorf("footer %q", f)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	for _, r := range "use jitter" {
		m.Update(key(string(r)))
	}
	if f := footer(m); f != "enter send  esc cancel" {
		t.Errorf("footer while typing %q", f)
	}
	m.Update(key("enter"))
	c := fc.last(t, "respond")
	if c.params["action"] != "text" || c.params["value"] != "use jitter" || c.params["prompt_id"] != "p1" {
		t.Errorf("respond %v", c.params)
	}
	// Without text on offer, Tab opens nothing.
	m2, _, clk2 := newTest(t, Options{})
	peekAt(t, m2, clk2, claudePeek([]string{"choose"}, nil))
	m2.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if m2.inbox.input != nil {
		t.Error("tab opened an answer line on a prompt that takes no text")
	}
}

// Each row starts with its kind's glyph; --ascii-only draws letters.
func TestInboxRowGlyphs(t *testing.T) {
	t.Parallel()
	for _, ascii := range []bool{false, true} {
		m, _, _ := newTest(t, Options{ASCIIOnly: ascii})
		openWith(t, m,
			map[string]any{"id": "1", "kind": "question", "session": "work", "window": "w2", "name": "claude", "summary": "which?", "seq": 1},
			map[string]any{"id": "2", "kind": "errored", "session": "work", "window": "w3", "name": "codex", "summary": "boom", "seq": 1},
			map[string]any{"id": "3", "kind": "finished", "session": "work", "window": "w4", "name": "gem", "summary": "done", "seq": 1},
			map[string]any{"id": "4", "kind": "ask", "session": "work", "summary": "Ship?", "options": []string{"y"}, "request_id": "r", "seq": 1})
		s := screenText(m)
		want := []string{"▲", "×", "■"}
		if ascii {
			want = []string{"!", "x", "#"}
		}
		for i, name := range []string{"work/claude", "work/codex", "work/gem"} {
			if !strings.Contains(s, want[i]+" ") || !regexpMatch(`[`+want[i]+`]\s+\d*s?\s*`+name, s) {
				t.Errorf("ascii=%v: no %s row led by %s:\n%s", ascii, name, want[i], s)
			}
		}
		if !regexpMatch(`work  Ship\?`, s) || strings.Contains(s, "work/  Ship") {
			t.Errorf("a pane-less ask should read work, not work/:\n%s", s)
		}
		if !strings.Contains(s, "Questions (2)") || !strings.Contains(s, "Errored (1)") || !strings.Contains(s, "Done (1)") {
			t.Errorf("headings:\n%s", s)
		}
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// A plan row says its length once, whether or not the daemon's summary
// already ends with it.
func TestInboxPlanRowLengthOnce(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	openWith(t, m,
		map[string]any{"id": "1", "kind": "plan", "session": "work", "window": "w2", "name": "claude", "summary": "Add retry (80 lines)", "plan_lines": 80, "seq": 1},
		map[string]any{"id": "2", "kind": "plan", "session": "work", "window": "w3", "name": "codex", "summary": "Tiny plan", "plan_lines": 2, "seq": 1})
	s := screenText(m)
	if strings.Contains(s, "(80 lines) (80 lines)") || !strings.Contains(s, "Add retry (80 lines)") || !strings.Contains(s, "Tiny plan (2 lines)") {
		t.Fatalf("plan rows:\n%s", s)
	}
}

// Every key of the Inbox but the digits is rebindable: the list's reply,
// reason, mailbox and scroll keys under [keybindings.inbox], the prompt
// view's under [keybindings.inbox_peek]. A rebound key acts, its old key
// does nothing, and the footers name the new keys.
func TestInboxAndPromptKeysRebind(t *testing.T) {
	t.Parallel()
	opt := Options{}
	if err := opt.Configure(load(t, "[keybindings.inbox]\nmailbox = \"B\"\nreply = \"R\"\ndetail-down = \"ctrl+j\"\n[keybindings.inbox_peek]\ndeny = \"x\"\nback = \"h\"\napprove = \"y\"\n")); err != nil {
		t.Fatal(err)
	}
	m, fc, clk := newTest(t, opt)
	openWith(t, m, map[string]any{"id": "4", "kind": "finished", "session": "work", "window": "w1", "name": "shell",
		"summary": "done", "since": clk.t.Add(-time.Minute).UnixNano(), "seq": 1})
	if f := footer(m); !strings.HasPrefix(f, "R reply  enter go") {
		t.Errorf("footer %q", f)
	}
	m.Update(key("m"))
	if m.inbox.box != nil {
		t.Fatal("m still opens the mailbox once mailbox is B")
	}
	m.Update(key("B"))
	if m.inbox.box == nil {
		t.Fatal("B does not open the mailbox")
	}
	m.Update(key("esc"))
	m.Update(key("R"))
	if m.inbox.input == nil {
		t.Fatal("R does not open the reply line")
	}
	m.Update(key("esc"))
	m.inbox = nil

	peekAt(t, m, clk, claudePeek([]string{"approve", "deny", "choose"}, nil))
	if f := footer(m); f != "1-2 choose  y approve  x deny  enter go to pane  r read again  h back" {
		t.Errorf("prompt footer %q", f)
	}
	m.Update(key("d"))
	m.Update(key("a"))
	if n := countCalls(fc, "respond"); n != 0 {
		t.Fatalf("d or a answered after they were rebound: %v", fc.last(t, "respond").params)
	}
	m.Update(key("x"))
	if c := fc.last(t, "respond"); c.params["action"] != "deny" {
		t.Errorf("x sent %v", c.params)
	}
	m.Update(key("h"))
	if m.inbox.peek != nil {
		t.Error("h did not go back to the list")
	}
	help := strings.Join(stripAll(m.helpLines(120)), "\n")
	for _, want := range []string{"Inbox, a prompt opened with space", "[keybindings.inbox_peek] deny", "[keybindings.inbox] mailbox", "[keybindings.inbox] reason"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if err := (&Options{}).Configure(load(t, "[keybindings.inbox_peek]\nfly = \"f\"\n")); err == nil || !strings.Contains(err.Error(), `[keybindings.inbox_peek] has no action "fly"`) {
		t.Errorf("an unknown prompt action: %v", err)
	}
}
