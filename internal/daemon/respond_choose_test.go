package daemon

import (
	"strings"
	"testing"
)

// riskyClaudePrompt draws the claude-code permission prompt for a
// recursive delete, with a "No, and tell …" option, then prints every key
// it gets.
const riskyClaudePrompt = `printf '\n Bash command\n\n   rm -rf build/\n\n Do you want to proceed?\n \342\235\257 1. Yes\n   2. No, and tell Claude what to do differently (esc)\n\n'; stty raw -echo; while :; do k=$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'); printf 'key=%s\r\n' "$k"; done`

// Choosing the "No" option of a risky prompt by its number is a deny:
// one call, no risk_ack. Choosing "Yes" by number is an allow and is
// refused without the rules named, with text that says so. A number the
// prompt lacks names the numbers it has and does not offer "choose".
func TestRespondChooseIsBoundToTheOptionLabel(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	a := personRPC(t, sock)
	a.must("new-session", map[string]any{"name": "n", "argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", riskyClaudePrompt}})
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	pk := a.must("peek-prompt", map[string]any{"session": "n", "window": "0"})
	if pk["answerable"] != true || !strings.Contains(str(pk["risk"]), "recursive delete") {
		t.Fatalf("peek: %v", pk)
	}
	// peek-prompt says which option refuses, so a client needs no reading
	// of its own: "No, and tell Claude…" denies, "Yes" does not.
	if opts, _ := pk["options"].([]any); len(opts) != 2 || opts[0].(map[string]any)["deny"] != nil || opts[1].(map[string]any)["deny"] != true {
		t.Fatalf("peek options: %v", pk["options"])
	}

	_, err := a.call("respond", map[string]any{"session": "n", "window": "0", "action": "choose", "value": "9", "timeout": 2000})
	if err == nil || err.Message != "option 9 is not offered; this prompt has options 1-2" || err.Hint == nil ||
		strings.Join(err.Hint.Accepted, ",") != "1,2" || len(err.Hint.Available) != 0 {
		t.Fatalf("choose 9: %+v %+v", err, err.Hint)
	}
	_, err = a.call("respond", map[string]any{"session": "n", "window": "0", "action": "choose", "value": "1", "timeout": 2000})
	if err == nil || err.Code != codeRiskUnacknowledged || !strings.Contains(err.Message, "allowing it needs --risk-ack") {
		t.Fatalf("choose 1 without risk_ack: %+v", err)
	}
	if scr := str(a.must("capture-pane", map[string]any{"session": "n", "window": "0"})["content"]); strings.Contains(scr, "key=") {
		t.Fatalf("a refused answer pressed a key:\n%s", scr)
	}

	res := a.must("respond", map[string]any{"session": "n", "window": "0", "action": "choose", "value": "2", "timeout": 2000})
	if str(res["sent"]) != "[2]" {
		t.Fatalf("choose 2: %v", res)
	}
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "window-output", "pattern": "key=32", "timeout": 15000})
}
