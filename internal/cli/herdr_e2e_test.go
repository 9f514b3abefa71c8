package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// paneRun types a command into a pane of the env's daemon and returns the
// pane's text once the command's marker printed.
func paneRun(t *testing.T, e *env, window, command string) string {
	t.Helper()
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", window, command+"; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", window, "--pattern", marker, "--timeout", "20000")
	return e.ok("capture-pane", "-s", "work", "-w", window, "--scrollback")
}

func TestHerdrLinkFromAPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")

	// The link is herdr's CLI: its version, an unsupported command (exit
	// 1, herdr's error shape) and a usage error (exit 2).
	out := paneRun(t, e, "0", `"$HERDR_BIN_PATH" --version; "$HERDR_BIN_PATH" status; echo "rc=$?"; "$HERDR_BIN_PATH" pane report-agent; echo "usage=$?"`)
	for _, want := range []string{"herdr 0.9.3+tuios", `"code":"unsupported"`, "rc=1", "usage=2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in\n%s", want, out)
		}
	}
	link := filepath.Join(e.dir, "run", "tuios", "herdr", "bin", "herdr")
	if target, err := os.Readlink(link); err != nil || target != e.bin {
		t.Fatalf("HERDR_BIN_PATH link: %q %v", target, err)
	}

	// A report through the link, from a script that goes on running (so
	// the pane is not back at its shell): applied, prints nothing.
	e.ok("send-text", "-s", "work", "-w", "0", `"$HERDR_BIN_PATH" pane report-agent "$HERDR_PANE_ID" --source crush --agent crush --state blocked --seq 3 && echo reported && sleep 30`+"\n")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "needs_input", "--timeout", "10000")
	var st struct {
		State     string `json:"state"`
		Message   string `json:"message"`
		BlockedBy string `json:"blocked_by"`
		Harness   string `json:"harness_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.State != "needs_input" || st.BlockedBy != "approval" || st.Message != "waits for approval" || st.Harness != "crush" {
		t.Fatalf("blocked through the link: %+v", st)
	}
	// ctrl+c only once sleep holds the foreground: pressed while the
	// shell went from the reporter to sleep, it would stop nothing.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var fg struct {
			Foreground string `json:"foreground"`
		}
		e.json(&fg, "get-agent-state", "-s", "work", "-w", "0")
		if fg.Foreground == "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sleep never held the foreground (it is %q)", fg.Foreground)
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.ok("send-keys", "-s", "work", "-w", "0", "ctrl+c")
	// Back at the shell, the reporter gone: the pane clears to none.
	if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "none", "--timeout", "10000"); r.code != 0 {
		t.Fatalf("the pane did not clear: %s\nstate: %s\nscreen:\n%s", r.err, e.ok("get-agent-state", "--json", "-s", "work", "-w", "0"),
			e.ok("capture-pane", "-s", "work", "-w", "0"))
	}

	// The figure: one report through the link, process start to applied
	// (the answer comes after the report is applied), averaged over 20.
	out = paneRun(t, e, "0", `s=$(date +%s%N); i=10; while [ $i -lt 30 ]; do "$HERDR_BIN_PATH" pane report-agent "$HERDR_PANE_ID" --source fig --agent crush --state working --seq $i || echo FAIL''ED; i=$((i+1)); done; e=$(date +%s%N); echo "figure_ns=$(( (e - s) / 20 ))"`)
	if strings.Contains(out, "FAILED") {
		t.Fatalf("a link report failed:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "figure_ns="); ok {
			if ns, err := strconv.Atoi(v); err == nil {
				t.Logf("one report through the herdr link (process start to applied): %v", time.Duration(ns))
			}
		}
	}

	// Reads through the link answer in herdr's ids.
	out = paneRun(t, e, "0", `"$HERDR_BIN_PATH" pane get "$HERDR_PANE_ID" | grep -c '"pane_info"'`)
	if !strings.Contains(out, "\n1\n") {
		t.Fatalf("pane get through the link:\n%s", out)
	}
	// Worktrees through the link, in the caller's own pane's repository.
	out = paneRun(t, e, "0", `cd "$(mktemp -d)" && git init -q -b main r && cd r && git -c user.name=T -c user.email=t@example.invalid commit -q --allow-empty -m x && "$HERDR_BIN_PATH" worktree create side >/dev/null && "$HERDR_BIN_PATH" worktree list | grep -o '"branch":"side","main":false,"open":false' ; cd /`)
	if !strings.Contains(out, "\n"+`"branch":"side","main":false,"open":false`) {
		t.Fatalf("worktree create and list through the link:\n%s", out)
	}
	// herdr's own socket path is never what the link uses.
	out = paneRun(t, e, "0", `echo "sock=$HERDR_SOCKET_PATH"`)
	if !strings.Contains(out, fmt.Sprintf("sock=%s.herdr", e.socket())) {
		t.Fatalf("HERDR_SOCKET_PATH:\n%s", out)
	}
}

// `herdr agent start` through the link: the agent's command is typed at
// another pane's shell prompt and the link returns once the agent is at
// rest; a kind no manifest knows is a usage error (exit 2), sent nowhere.
func TestHerdrLinkAgentStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	var wins struct {
		Windows []struct {
			ID string `json:"window_id"`
		} `json:"windows"`
	}
	e.json(&wins, "list-windows", "-s", "work")
	if len(wins.Windows) != 1 {
		t.Fatalf("windows: %+v", wins)
	}
	pane := wins.Windows[0].ID

	// "claude" on the pane's PATH is the pretend agent: one short turn,
	// then its idle prompt.
	bin := filepath.Join(e.dir, "agentbin")
	os.MkdirAll(bin, 0o700)
	script := fmt.Sprintf("#!/bin/sh\nexec '%s' pretend-agent -prompt=false -steps 2 -step 100ms -finish done \"$@\"\n", e.bin)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	paneRun(t, e, "0", "PATH="+bin+":$PATH; export PATH")

	link := filepath.Join(e.dir, "run", "tuios", "herdr", "bin", "herdr")
	herdr := func(args ...string) result {
		cmd := exec.Command(link, args...)
		cmd.Env = append(append([]string{}, e.vars...), "HERDR_SOCKET_PATH="+e.socket()+".herdr")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return result{out.String(), errb.String(), code}
	}

	if r := herdr("agent", "start", "x", "--kind", "vim", "--pane", pane); r.code != 2 || !strings.Contains(r.err, "unknown agent kind") {
		t.Fatalf("an unknown kind: exit %d\n%s%s", r.code, r.out, r.err)
	}
	start := time.Now()
	r := herdr("agent", "start", "helper", "--kind", "claude", "--pane", pane, "--timeout-ms", "30000", "--", "-task", "tidy it up")
	if r.code != 0 || !strings.Contains(r.out, `"agent_started"`) || !strings.Contains(r.out, `"argv":["claude","-task","tidy it up"]`) {
		var st map[string]any
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		t.Fatalf("agent start: exit %d\nstdout: %s\nstderr: %s\nstate: %v\nscreen:\n%s", r.code, r.out, r.err, st, e.ok("capture-pane", "-s", "work", "-w", "0"))
	}
	var st struct {
		State string `json:"state"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.State != "done" && st.State != "idle" {
		t.Fatalf("after agent start returned (%v): %+v", time.Since(start), st)
	}
	screen := e.ok("capture-pane", "-s", "work", "-w", "0")
	if !strings.Contains(screen, "tidy it up") {
		t.Fatalf("the agent did not get its argument:\n%s", screen)
	}
	// The agent holds the pane now: a second start is refused, exit 1.
	if r := herdr("agent", "start", "again", "--kind", "claude", "--pane", pane); r.code != 1 || !strings.Contains(r.err, "agent_pane_busy") {
		t.Fatalf("a second start: exit %d\n%s%s", r.code, r.out, r.err)
	}
}

// The mutating commands through the link, from a script in a pane: a
// workspace relabelled, a tab made, renamed, moved and closed, a split
// pane with a command run in it, and a usage error for a tab slot that is
// not a number.
func TestHerdrLinkMutatingCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")

	out := paneRun(t, e, "0", `h="$HERDR_BIN_PATH"; `+
		`"$h" workspace rename "$HERDR_WORKSPACE_ID" Docs site >/dev/null && "$h" workspace get "$HERDR_WORKSPACE_ID" | grep -o '"label":"Docs site"'; `+
		`tab=$("$h" tab create --workspace "$HERDR_WORKSPACE_ID" --label notes | sed 's/.*"tab_id":"\([^"]*\)".*/\1/'); echo "tab=$tab"; `+
		`"$h" tab rename "$tab" more notes >/dev/null && "$h" tab get "$tab" | grep -o '"label":"more notes"'; `+
		`"$h" tab move "$tab" seven; echo "usage=$?"; `+
		`"$h" tab move "$tab" 7 | grep -o '"tab_id":"[^"]*:t7"'; `+
		`"$h" tab close "${tab%:t*}:t7" >/dev/null; echo "closed=$?"`)
	for _, want := range []string{"\n" + `"label":"Docs site"`, "\n" + `"label":"more notes"`, "usage=2", ":t7\"", "closed=0"} {
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in\n%s", want, out)
		}
	}
	if e.ok("ls") == "" || !strings.Contains(e.ok("ls"), "work") {
		t.Fatalf("the tuios session lost its name to a herdr label:\n%s", e.ok("ls"))
	}
	// The tab and its pane are gone: one window left.
	var wins struct {
		Windows []struct {
			ID string `json:"window_id"`
		} `json:"windows"`
	}
	e.json(&wins, "list-windows", "-s", "work")
	if len(wins.Windows) != 1 {
		t.Fatalf("after tab close: %d windows", len(wins.Windows))
	}

	// pane split, then pane run types a command there and presses Enter.
	paneRun(t, e, "0", `"$HERDR_BIN_PATH" pane split "$HERDR_PANE_ID" | sed 's/.*"pane_id":"\([^"]*\)".*/\1/' > /tmp/split-$$; p=$(cat /tmp/split-$$); rm -f /tmp/split-$$; `+
		`"$HERDR_BIN_PATH" pane run "$p" 'echo ran_$((6*7))'`)
	e.json(&wins, "list-windows", "-s", "work")
	if len(wins.Windows) != 2 {
		t.Fatalf("after pane split: %d windows", len(wins.Windows))
	}
	other := wins.Windows[1].ID
	e.ok("wait-for", "window-output", "-s", "work", "-w", other, "--pattern", "ran_42", "--timeout", "10000")
}
