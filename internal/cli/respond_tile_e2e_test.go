package cli_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// shortTile gives session work an area of cols×rows: its windows are tiled
// into it, each tile a title row and its pane (the resize verb, as an
// attached client of that size does).
func (e *env) shortTile(cols, rows int) {
	e.t.Helper()
	e.verbCall("resize", fmt.Sprintf(`{"session":"work","cols":%d,"rows":%d}`, cols, rows))
}

// untouchedPrompt fails when the pretend agent took an answer.
func (e *env) untouchedPrompt(what string) {
	e.t.Helper()
	scr := e.ok("capture-pane", "-s", "work", "-w", "agent")
	if !strings.Contains(scr, "Do you want to proceed?") || strings.Contains(scr, "Allowed") || strings.Contains(scr, "Denied") {
		e.t.Fatalf("%s pressed something:\n%s", what, scr)
	}
}

// Issue 33 item 5: in a short tile (8 rows here: the pretend agent sizes
// its box to the pane's width, so its dialog is 11 rows) the agent's
// rm -rf build/ is cut from the rows the screen rule reads (and from the
// pane's screen):
// the risk rules still judge it, from the dialog read whole out of the
// history, and the allow needs --risk-ack.
func TestRespondJudgesTheCommandAShortTileCut(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	e.shortTile(80, 9) // two tiles side by side: the agent's pane is 39x8
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	var win struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	}
	e.json(&win, "get-window", "-s", "work", "-w", "agent")
	if scr := e.ok("capture-pane", "-s", "work", "-w", "agent"); strings.Contains(scr, "rm -rf") || win.Height > 9 {
		t.Fatalf("the tile (%dx%d) still shows the command; the test would show nothing:\n%s", win.Width, win.Height, scr)
	}

	var pk peekJSON
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "agent")
	if !pk.Answerable || strings.Join(pk.Risk, ",") != "recursive delete" {
		t.Fatalf("the risk rules did not read the command: risk %v, lines %q", pk.Risk, pk.Lines)
	}
	if lines := strings.Join(pk.Lines, "\n"); !strings.Contains(lines, "rm -rf build/") || !strings.Contains(lines, "╭") {
		t.Fatalf("the peek does not show the dialog whole:\n%s", lines)
	}
	if len(pk.Options) != 2 || pk.Options[1].Label != "No, and tell the agent what to do differently (esc)" {
		t.Fatalf("options (whole labels from the joined rows): %+v", pk.Options)
	}
	r := e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "agent", "--prompt-id", pk.PromptID, "approve")
	if !strings.Contains(r.err, "recursive delete") {
		t.Fatalf("the refusal does not name the rule: %s", r.err)
	}
	e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "agent", "choose", "1")
	e.untouchedPrompt("an unacknowledged allow in a short tile")

	var res respondJSON
	e.json(&res, "respond", "-s", "work", "-w", "agent", "--prompt-id", pk.PromptID, "--risk-ack", "recursive delete", "approve")
	if strings.Join(res.Sent, " ") != "1" || res.SettledBy == "timeout" {
		t.Fatalf("respond: %+v", res)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", "Allowed", "--timeout", "10000")
}

// Issue 33 item 5: a full-screen agent (the alternate screen keeps no
// history) in a tile too short for its dialog: the command is gone, so the
// prompt is "cut short". Allowing it needs that named; the error says
// why and how to see it; deny needs nothing.
func TestRespondRefusesAnUnreadablePromptWithoutItsAcknowledgement(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms", "-alt-screen")
	e.shortTile(160, 7) // an 80x6 pane: the box fits its width, not its height
	if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "needs_input", "--timeout", "20000"); r.code != 0 {
		t.Fatalf("no prompt: %s\n%s\n%s", r.err, e.ok("capture-pane", "-s", "work", "-w", "agent"), e.ok("explain-agent-screen", "-s", "work", "-w", "agent"))
	}

	var pk struct {
		peekJSON
		NotWhole string `json:"not_whole"`
	}
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "agent")
	if strings.Contains(strings.Join(pk.Lines, "\n"), "rm -rf") {
		t.Fatalf("the command is on the screen; the test would show nothing: %q", pk.Lines)
	}
	if strings.Join(pk.Risk, ",") != "cut short" || !strings.Contains(pk.NotWhole, "make it taller") {
		t.Fatalf("an unreadable prompt: risk %v, not_whole %q", pk.Risk, pk.NotWhole)
	}
	text := e.ok("peek-prompt", "-s", "work", "-w", "agent")
	if !strings.Contains(text, `risky: cut short (allowing needs --risk-ack "cut short")`) || !strings.Contains(text, "not read whole: ") {
		t.Fatalf("peek text:\n%s", text)
	}
	r := e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "agent", "approve")
	for _, want := range []string{"its top is not on the pane's screen", "accepted: cut short", "make it taller", "tuios peek-prompt -s work -w "} {
		if !strings.Contains(r.err, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, r.err)
		}
	}
	e.untouchedPrompt("an allow of a prompt nobody could read")
	if out := e.ok("list-attention"); !strings.Contains(out, "risky: Do you want to proceed?") || !strings.Contains(out, "risky: cut short: the prompt's command is not on the pane's screen whole") {
		t.Fatalf("list-attention:\n%s", out)
	}
	var res respondJSON
	e.json(&res, "respond", "-s", "work", "-w", "agent", "--risk-ack", "cut short", "approve")
	if strings.Join(res.Sent, " ") != "1" {
		t.Fatalf("respond with the acknowledgement: %+v", res)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", "Allowed", "--timeout", "10000")
}

// Issue 33 item 6: an unheld approval whose command matches a risk rule is
// marked risky in the Inbox: the list-attention row reads risky:, a line
// under it names the rule, and --json carries risk with rule, why and the
// text it matched, as peek-prompt says.
func TestListAttentionMarksARiskyApproval(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.pretendOnPrompt("agent")
	e.ok("new-window", "-s", "work", "calm", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms", "-task", "tidy", "-prompt=false")

	out := e.ok("list-attention")
	if !strings.Contains(out, "work/agent  risky: Do you want to proceed?\n") ||
		!strings.Contains(out, "\n                risky: recursive delete: deletes a tree of files without asking (rm -rf build/)\n") {
		t.Fatalf("list-attention text:\n%s", out)
	}
	var res struct {
		Items []struct {
			Kind    string `json:"kind"`
			Name    string `json:"name"`
			Summary string `json:"summary"`
			Risk    []struct {
				Rule, Why, Text string
			} `json:"risk"`
		} `json:"items"`
	}
	raw := e.ok("list-attention", "--json")
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range res.Items {
		if it.Name != "agent" || it.Kind != "approval" {
			continue
		}
		found = true
		if len(it.Risk) != 1 || it.Risk[0].Rule != "recursive delete" || it.Risk[0].Text != "rm -rf build/" || it.Risk[0].Why == "" {
			t.Fatalf("the item's risk: %+v", it.Risk)
		}
	}
	if !found {
		t.Fatalf("no approval item:\n%s", raw)
	}
	// A deny leaves no risky row behind.
	e.ok("respond", "-s", "work", "-w", "agent", "deny")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "idle,done", "--timeout", "20000")
	if out := e.ok("list-attention", "--kind", "approval"); strings.Contains(out, "risky") {
		t.Fatalf("after the deny:\n%s", out)
	}
}
