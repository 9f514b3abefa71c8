package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

type peekJSON struct {
	Type       string   `json:"type"`
	Harness    string   `json:"harness"`
	State      string   `json:"state"`
	Blocked    bool     `json:"blocked"`
	Found      bool     `json:"found"`
	Answerable bool     `json:"answerable"`
	Reason     string   `json:"reason"`
	PromptID   string   `json:"prompt_id"`
	Lines      []string `json:"lines"`
	Options    []struct {
		N     int    `json:"n"`
		Label string `json:"label"`
	} `json:"options"`
	Actions   []string `json:"actions"`
	Risk      []string `json:"risk"`
	Untrusted bool     `json:"untrusted"`
}

type respondJSON struct {
	Type      string   `json:"type"`
	Action    string   `json:"action"`
	Sent      []string `json:"sent"`
	PromptID  string   `json:"prompt_id"`
	SettledBy string   `json:"settled_by"`
	State     string   `json:"state"`
	PressedMS int64    `json:"pressed_ms"`
	SettledMS int64    `json:"settled_ms"`
}

// shellRespondEnv is a tuios world whose daemon takes respond from a shell
// outside every pane: respond_from_shell = true in its config file.
func shellRespondEnv(t *testing.T) *env {
	e := newEnv(t)
	cfg := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[daemon]\nrespond_from_shell = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("new", "--detach", "work")
	return e
}

func (e *env) pretendOnPrompt(name string) {
	e.t.Helper()
	e.ok("new-window", "-s", "work", name, "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", name, "--until", "needs_input", "--timeout", "20000")
}

func (e *env) fails(code string, args ...string) result {
	e.t.Helper()
	r := e.run(args...)
	if r.code == 0 || !strings.Contains(r.err, code) {
		e.t.Fatalf("tuios %s: want %s, got exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, r.code, r.out, r.err)
	}
	return r
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The pretend agent's prompt (rm -rf build/) is read, refused when stale,
// refused without its risk rules named, refused from inside a pane, and
// answered with the manifest's key for "yes".
func TestRespondAnswersThePretendAgent(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.pretendOnPrompt("agent")
	e.ok("new-window", "-s", "work", "sh", "--no-focus")

	var pk peekJSON
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "agent")
	if pk.Type != "prompt_peek" || !pk.Blocked || !pk.Found || !pk.Answerable || pk.Harness != "claude-code" || !pk.Untrusted ||
		!regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(pk.PromptID) {
		t.Fatalf("peek: %+v", pk)
	}
	if len(pk.Options) != 2 || pk.Options[0].N != 1 || pk.Options[0].Label != "Yes" || !strings.HasPrefix(pk.Options[1].Label, "No") {
		t.Fatalf("options: %+v", pk.Options)
	}
	if !has(pk.Actions, "approve") || !has(pk.Actions, "deny") || !has(pk.Actions, "choose") || has(pk.Actions, "approve_always") {
		t.Fatalf("actions (the menu has no always option): %v", pk.Actions)
	}
	if !has(pk.Risk, "recursive delete") || !strings.Contains(strings.Join(pk.Lines, "\n"), "rm -rf build/") {
		t.Fatalf("risk %v, lines %q", pk.Risk, pk.Lines)
	}
	text := e.ok("peek-prompt", "-s", "work", "-w", "agent")
	if !strings.Contains(text, "--- begin untrusted content from agent") || !strings.Contains(text, "│ ") || !strings.Contains(text, "prompt "+pk.PromptID) {
		t.Fatalf("peek text is not fenced:\n%s", text)
	}
	untouched := func(what string) {
		t.Helper()
		if scr := e.ok("capture-pane", "-s", "work", "-w", "agent"); !strings.Contains(scr, "Do you want to proceed?") || strings.Contains(scr, "Allowed") || strings.Contains(scr, "Denied") {
			t.Fatalf("%s pressed something:\n%s", what, scr)
		}
	}
	// A stale id: nothing pressed.
	e.fails("prompt_changed", "respond", "-s", "work", "-w", "agent", "--prompt-id", "0123456789abcdef", "--risk-ack", "recursive delete", "approve")
	untouched("a stale prompt id")
	// Risky: allowing needs the rules named.
	r := e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "agent", "--prompt-id", pk.PromptID, "approve")
	if !strings.Contains(r.err, "recursive delete") {
		t.Fatalf("the refusal does not name the rule: %s", r.err)
	}
	untouched("an unacknowledged risky approve")
	// An action the menu does not offer.
	if r := e.fails("invalid_params", "respond", "-s", "work", "-w", "agent", "approve_always"); !strings.Contains(r.err, "available") {
		t.Fatalf("no available list: %s", r.err)
	}
	// From inside a pane: not_human, even with respond_from_shell.
	if rc, out := e.inPane("sh", "tuios respond -s work -w agent --risk-ack 'recursive delete' approve"); rc == 0 || !strings.Contains(out, "not_human") {
		t.Fatalf("a pane caller: rc %d: %s", rc, out)
	}
	untouched("a pane caller")

	start := time.Now()
	var res respondJSON
	e.json(&res, "respond", "-s", "work", "-w", "agent", "--prompt-id", pk.PromptID, "--risk-ack", "recursive delete", "approve")
	if res.Type != "prompt_response" || strings.Join(res.Sent, " ") != "1" || res.PromptID != pk.PromptID || (res.SettledBy != "state" && res.SettledBy != "prompt") {
		t.Fatalf("respond: %+v", res)
	}
	t.Logf("figure: respond approve: keys pressed %d ms after the call (daemon side), settled by %s after %d ms; CLI round trip %v",
		res.PressedMS, res.SettledBy, res.SettledMS, time.Since(start).Round(time.Millisecond))
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working,idle,done", "--timeout", "20000")
	if scr := e.ok("capture-pane", "-s", "work", "-w", "agent", "--scrollback"); !strings.Contains(scr, "Allowed") {
		t.Fatalf("the pane did not take the answer:\n%s", scr)
	}
	// The same prompt again: it is gone.
	e.fails("prompt_changed", "respond", "-s", "work", "-w", "agent", "--prompt-id", pk.PromptID, "--risk-ack", "recursive delete", "approve")
	var after peekJSON
	e.json(&after, "peek-prompt", "-s", "work", "-w", "agent")
	if after.Blocked || after.Reason == "" {
		t.Fatalf("a pane that moved on: %+v", after)
	}
}

// Deny is taken without risk_ack, and presses the manifest's deny key.
func TestRespondDenyNeedsNoRiskAck(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.pretendOnPrompt("agent")
	var res respondJSON
	e.json(&res, "respond", "-s", "work", "-w", "agent", "deny")
	if strings.Join(res.Sent, " ") != "esc" || res.SettledBy == "timeout" {
		t.Fatalf("deny: %+v", res)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", "Denied", "--timeout", "10000")
}

// Without respond_from_shell a script outside every pane is not the person.
func TestRespondFromAShellNeedsTheSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.pretendOnPrompt("agent")
	e.fails("not_human", "respond", "-s", "work", "-w", "agent", "deny")
	e.fails("not_human", "respond", "-s", "work", "-w", "agent", "--human-nonce", "ffffffffffffffffffffffffffffffff", "deny")
	if scr := e.ok("capture-pane", "-s", "work", "-w", "agent"); !strings.Contains(scr, "Do you want to proceed?") {
		t.Fatalf("a refused respond pressed something:\n%s", scr)
	}
	// peek-prompt is a read: open to anyone.
	var pk peekJSON
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "agent")
	if !pk.Answerable {
		t.Fatalf("peek: %+v", pk)
	}
	// A pane that is not blocked is not an error.
	e.ok("new-window", "-s", "work", "sh", "--no-focus")
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "sh")
	if pk.Blocked || pk.Reason == "" {
		t.Fatalf("an unblocked peek: %+v", pk)
	}
}

// A captured Claude Code permission screen, printed by a small program that
// then reads one key, is answered with the keys claude-code.toml names:
// approve_always → 2, deny → esc, choose 3 → 3, approve → 1.
func TestRespondPressesTheManifestKeysOnACapturedClaudeScreen(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	fixture, err := filepath.Abs("../../detect/fixtures/screens/claude-code-permission-captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(e.dir, "dialog.sh")
	os.WriteFile(script, []byte(`n=0
while :; do
  n=$((n+1))
  sed '1,/^---$/d' `+fixture+`
  stty raw -echo
  k=$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')
  stty sane
  printf '\033[2J\033[Hround %s key=%s\n' $n "$k"
  sleep 1
  printf '\033[2J\033[H'
done
`), 0o600)
	e.ok("new-window", "-s", "work", "rcc", "--no-focus", "--", "env", "TUIOS_AGENT=claude-code", "/bin/sh", script)
	last := ""
	// peekNext waits for the next prompt: answerable, with a new id.
	peekNext := func(round int) peekJSON {
		var pk peekJSON
		deadline := time.Now().Add(20 * time.Second)
		for {
			e.json(&pk, "peek-prompt", "-s", "work", "-w", "rcc")
			if pk.Answerable && pk.PromptID != last {
				last = pk.PromptID
				return pk
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: no new prompt: %+v", round, pk)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for i, c := range []struct {
		args []string
		sent string
		key  string
	}{
		{[]string{"approve_always"}, "2", "32"},
		{[]string{"deny"}, "esc", "1b"},
		{[]string{"choose", "3"}, "3", "33"},
		{[]string{"approve"}, "1", "31"},
	} {
		pk := peekNext(i + 1)
		if !pk.Answerable || pk.Harness != "claude-code" || len(pk.Options) != 3 || pk.Options[1].N != 2 ||
			!strings.HasPrefix(pk.Options[1].Label, "Yes, and always allow") || len(pk.Risk) != 0 {
			t.Fatalf("round %d: peek: %+v", i+1, pk)
		}
		for _, a := range []string{"approve", "approve_always", "deny", "choose"} {
			if !has(pk.Actions, a) {
				t.Fatalf("round %d: %s not offered: %v", i+1, a, pk.Actions)
			}
		}
		var res respondJSON
		e.json(&res, append([]string{"respond", "-s", "work", "-w", "rcc", "--prompt-id", pk.PromptID}, c.args...)...)
		if strings.Join(res.Sent, " ") != c.sent || res.SettledBy == "timeout" {
			t.Fatalf("round %d: %+v", i+1, res)
		}
		pat := "round " + string(rune('1'+i)) + " key=" + c.key
		e.ok("wait-for", "window-output", "-s", "work", "-w", "rcc", "--pattern", pat, "--timeout", "10000")
		t.Logf("figure: %s on a captured claude-code screen: pressed %q %d ms after the call, settled by %s after %d ms",
			c.args[0], res.Sent, res.PressedMS, res.SettledBy, res.SettledMS)
		// The id of an answered prompt never answers the next one, even
		// when it asks the same words.
		if i == 0 {
			e.fails("prompt_changed", "respond", "-s", "work", "-w", "rcc", "--prompt-id", pk.PromptID, "deny")
			if scr := e.ok("capture-pane", "-s", "work", "-w", "rcc"); strings.Contains(scr, "round 2") {
				t.Fatalf("a stale id pressed a key:\n%s", scr)
			}
		}
	}
}

// askerManifest is a harness a user adds: a program that asks for a name
// on its screen and takes a typed answer ([screen.rule.answers] text).
const askerManifest = `schema_version = 1
id = "asker"
display_name = "Asker"

[detect]
comm = ["asker"]

[screen]
enabled = true
fold_case = true
lines = 12

[[screen.rule]]
state = "needs_input"
kind = "question"
message = "Asker wants a name."
all = ["what name shall i use?"]
source = "test"
[screen.rule.answers]
text = true

[input]
submit = "cr"
`

// A text answer is typed into the program and submitted; the program
// reads exactly that line.
func TestRespondTypesATextAnswer(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	home := filepath.Join(e.dir, "home")
	hdir := filepath.Join(home, ".config", "tuios", "harnesses")
	os.MkdirAll(hdir, 0o700)
	if err := os.WriteFile(filepath.Join(hdir, "asker.toml"), []byte(askerManifest), 0o600); err != nil {
		t.Fatal(err)
	}
	// The daemon reads manifests when it starts.
	e.ok("kill-server")
	e.ok("kill-session", "work")
	e.ok("new", "--detach", "work")
	bin := filepath.Join(e.dir, "bin")
	os.MkdirAll(bin, 0o700)
	script := "#!/bin/sh\nprintf 'What name shall I use? '\nIFS= read -r name\necho \"got:[$name]\"\nsleep 60\n"
	if err := os.WriteFile(filepath.Join(bin, "asker"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	e.ok("new-window", "-s", "work", "ask", "--no-focus", "--", filepath.Join(bin, "asker"))
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "ask", "--until", "needs_input", "--timeout", "20000")
	var pk peekJSON
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "ask")
	if !pk.Answerable || pk.Harness != "asker" || !has(pk.Actions, "text") || has(pk.Actions, "approve") {
		t.Fatalf("peek: %+v", pk)
	}
	// Answers offered now only: approve is not.
	e.fails("invalid_params", "respond", "-s", "work", "-w", "ask", "approve")
	var res respondJSON
	e.json(&res, "respond", "-s", "work", "-w", "ask", "--prompt-id", pk.PromptID, "text", "Ada Lovelace; rm -rf /")
	if res.Type != "prompt_response" || res.Action != "text" {
		t.Fatalf("respond: %+v", res)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "ask", "--pattern", `got:\[Ada Lovelace; rm -rf /\]`, "--timeout", "10000")
}
