package daemon

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// TestNonceHelper is not a test: run as a child process (TUIOS_NONCE_HELPER
// set) it is a client in another process, or inside a pane, and prints
// what the daemon answered.
func TestNonceHelper(t *testing.T) {
	t.Parallel()
	mode := os.Getenv("TUIOS_NONCE_HELPER")
	if mode == "" {
		t.Skip("a helper process, not a test")
	}
	if mode == "hold" {
		holdConns(os.Getenv("TUIOS_NONCE_SOCK"))
		return
	}
	r := dialRPC(t, os.Getenv("TUIOS_NONCE_SOCK"))
	var perr *proto.Error
	switch mode {
	case "attach":
		_, perr = r.call("attach", map[string]any{"client": "helper"})
	case "respond":
		_, perr = r.call("respond", map[string]any{"session": "n", "window": "0", "action": "deny", "human_nonce": os.Getenv("TUIOS_NONCE")})
	}
	if perr == nil {
		os.Stdout.WriteString("helper_result=ok\n")
	} else {
		os.Stdout.WriteString("helper_result=" + perr.Message + " code=" + perr.Code + "\n")
	}
}

// The human nonce: issued to a client outside every pane, good on its
// connection, useless from another process, dead with its connection, and
// never issued inside a pane.
func TestAttachIssuesAHumanNonceOnlyOutsidePanes(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	a := dialRPC(t, sock)
	a.must("new-session", map[string]any{"name": "n"})
	res := a.must("attach", map[string]any{"client": "test"})
	nonce := str(res["human_nonce"])
	if res["type"] != "attached" || len(nonce) < 32 {
		t.Fatalf("attach: %v", res)
	}
	if again := str(a.must("attach", nil)["human_nonce"]); again == nonce {
		t.Fatal("a second attach gave the same nonce")
	}
	nonce = str(a.must("attach", nil)["human_nonce"])
	respond := func(r *rpc, n string) string {
		t.Helper()
		_, err := r.call("respond", map[string]any{"session": "n", "window": "0", "action": "deny", "human_nonce": n})
		if err == nil {
			return "ok"
		}
		return err.Code
	}
	// The pane is a shell with no prompt: a nonce that passes gets as far
	// as prompt_changed; one that does not is not_human.
	if got := respond(a, nonce); got != codePromptChanged {
		t.Fatalf("the nonce on its own connection: %s", got)
	}
	wrong := "0" + nonce[1:]
	if nonce[0] == '0' {
		wrong = "1" + nonce[1:]
	}
	if got := respond(a, wrong); got != codeRespondNotHuman {
		t.Fatalf("a wrong nonce: %s", got)
	}
	if got := respond(a, ""); got != codeRespondNotHuman {
		t.Fatalf("no nonce, no respond_from_shell: %s", got)
	}
	// Another process replaying it.
	out := helper(t, sock, "respond", nonce)
	if !strings.Contains(out, "code="+codeRespondNotHuman) {
		t.Fatalf("another process replayed the nonce: %s", out)
	}
	// The same client process on a second connection, while the first is open.
	b := dialRPC(t, sock)
	if got := respond(b, nonce); got != codePromptChanged {
		t.Fatalf("the holder's second connection: %s", got)
	}
	// Dead with its connection.
	a.c.Close()
	eventually(t, "the nonce dies with its connection", func() bool { return respond(b, nonce) == codeRespondNotHuman })

	// Inside a pane: refused.
	exe, _ := os.Executable()
	b.must("new-window", map[string]any{"session": "n", "name": "in", "no_focus": true,
		// The pane stays after the helper ends, so its output can be read.
		"argv": []string{"sh", "-c", `TUIOS_NONCE_HELPER=attach TUIOS_NONCE_SOCK="$1" "$2" -test.run='^TestNonceHelper$'; sleep 60`, "sh", sock, exe}})
	b.must("wait-for", map[string]any{"session": "n", "window": "in", "condition": "window-output", "pattern": "helper_result=", "timeout": 15000})
	got := str(b.must("capture-pane", map[string]any{"session": "n", "window": "in"})["content"])
	if !strings.Contains(got, "code="+codeRespondNotHuman) {
		t.Fatalf("attach inside a pane:\n%s", got)
	}
}

// A person who exports TUIOS_SOCKET to reach this daemon is still the
// person; the pane environment this daemon gives (TUIOS_ENV=1 beside the
// socket) is not.
func TestAnExportedSocketIsNotAPane(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	dialRPC(t, sock).must("new-session", map[string]any{"name": "n"})
	if out := helper(t, sock, "attach", "", "TUIOS_SOCKET="+sock); !strings.Contains(out, "helper_result=ok") {
		t.Fatalf("TUIOS_SOCKET alone: %s", out)
	}
	if out := helper(t, sock, "attach", "", "TUIOS_SOCKET="+sock, "TUIOS_ENV=1"); !strings.Contains(out, "code="+codeRespondNotHuman) {
		t.Fatalf("a pane's environment: %s", out)
	}
}

// helper runs TestNonceHelper in a child process outside every pane.
func helper(t *testing.T, sock, mode, nonce string, env ...string) string {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^TestNonceHelper$")
	cmd.Env = append(append(os.Environ(), "TUIOS_NONCE_HELPER="+mode, "TUIOS_NONCE_SOCK="+sock, "TUIOS_NONCE="+nonce), env...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// claudePrompt is a pane program that draws a prompt the claude-code
// manifest reads, then prints every key it gets.
const claudePrompt = `printf '\n Bash command\n\n   touch hello.txt\n\n Do you want to proceed?\n \342\235\257 1. Yes\n   2. No\n\n'; stty raw -echo; while :; do k=$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'); printf 'key=%s\r\n' "$k"; done`

// Two clients answer one prompt at once: the first wins, the second gets
// prompt_changed, and the pane gets exactly one key.
func TestTwoAnswersToOnePromptTheFirstWins(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	a := dialRPC(t, sock)
	a.must("new-session", map[string]any{"name": "n", "argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", claudePrompt}})
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	pk := a.must("peek-prompt", map[string]any{"session": "n", "window": "0"})
	if pk["answerable"] != true {
		t.Fatalf("peek: %v", pk)
	}
	b := dialRPC(t, sock)
	na := str(a.must("attach", nil)["human_nonce"])
	nb := str(b.must("attach", nil)["human_nonce"])
	type answer struct {
		res map[string]any
		err *proto.Error
	}
	got := make(chan answer, 2)
	for _, c := range []struct {
		r *rpc
		n string
	}{{a, na}, {b, nb}} {
		go func() {
			res, err := c.r.call("respond", map[string]any{"session": "n", "window": "0", "action": "approve", "prompt_id": pk["prompt_id"], "human_nonce": c.n, "timeout": 2000})
			got <- answer{res, err}
		}()
	}
	oks, changed := 0, 0
	for range 2 {
		an := <-got
		switch {
		case an.err == nil:
			oks++
		case an.err.Code == codePromptChanged:
			changed++
		default:
			t.Fatalf("respond: %+v", an.err)
		}
	}
	if oks != 1 || changed != 1 {
		t.Fatalf("%d answers taken, %d refused", oks, changed)
	}
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "window-output", "pattern": "key=31", "timeout": 15000})
	scr := str(a.must("capture-pane", map[string]any{"session": "n", "window": "0"})["content"])
	if strings.Count(scr, "key=") != 1 {
		t.Fatalf("the pane got other than one key:\n%s", scr)
	}
}

// A closed window leaves nothing in respond's tables: a long-lived daemon
// opens and closes windows without end. A window whose prompt was
// peeked (when it entered needs_input) and answered (its answer lock and
// the prompt marked answered) holds three entries until it closes, and
// none once close-window answered.
func TestAClosedWindowLeavesNothingInTheResponder(t *testing.T) {
	t.Parallel()
	srv, sock := serverWith(t, nil)
	a := personRPC(t, sock)
	a.must("new-session", map[string]any{"name": "r", "argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", claudePrompt}})
	a.must("wait-for", map[string]any{"session": "r", "window": "0", "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	pk := a.must("peek-prompt", map[string]any{"session": "r", "window": "0"})
	id := str(pk["window"])
	a.must("respond", map[string]any{"session": "r", "window": "0", "action": "deny", "prompt_id": pk["prompt_id"], "timeout": 200})
	if n := srv.prompts.Kept(); n != 3 {
		t.Fatalf("a peeked and answered window keeps %d entries, want 3 (its lock, when it entered needs_input, its answer)", n)
	}
	a.must("close-window", map[string]any{"session": "r", "window": id})
	if n := srv.prompts.Kept(); n != 0 {
		t.Fatalf("left behind: %d entries", n)
	}
}

// The codes respond answers (internal/daemon/attention) that these
// tests read.
const (
	codePromptChanged      = "prompt_changed"
	codeRiskUnacknowledged = "risk_unacknowledged"
)
