package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Crush's permission dialog in real panes: the pane stays needs_input
// while the dialog is up, and TUIOS answers it only when a crush process
// runs in the pane. A small shell script stands in for Crush. Named crush,
// its process's comm is crush; named otherwise, it is a program showing
// the same words. It ends waiting in the shell's own read, so the pane's
// foreground stays the stand-in: a detection tick that saw a sleep there
// instead took Crush for gone and cleared its report.

const crushScript = `#!/bin/sh
d='%[1]s'
sed '1,/^---$/d' '%[2]s'
run() {
	while [ ! -f "$d/$1" ]; do sleep 0.05; done
	TUIOS_HERDR_HELPER="$d/$1" TUIOS_HERDR_HELPER_OUT="$d/out-$1" '%[3]s' -test.run='^TestHerdrHelperReporter$' >/dev/null 2>&1
}
if [ -f "$d/reporter" ]; then run req1; fi
stty raw -echo
: > "$d/step1"
k=$(dd bs=1 count=1 2>/dev/null)
stty sane
printf '%%s' "$k" > "$d/key"
printf '\033[2J\033[H'
if [ -f "$d/reporter" ]; then run req2; fi
: > "$d/step2"
while read -r _; do :; done
`

// crushStandIn writes the stand-in program named name into its own
// directory and returns that directory and the program's path.
func crushStandIn(t *testing.T, name string, reporter bool) (dir, prog string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "crush")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	fix, err := filepath.Abs(filepath.Join("..", "..", "detect", "fixtures", "screens", "crush-permission-bash.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fix); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	prog = filepath.Join(dir, name)
	writeExecutable(t, prog, []byte(fmt.Sprintf(crushScript, dir, fix, exe)), 0o755)
	if reporter {
		os.WriteFile(filepath.Join(dir, "reporter"), nil, 0o600)
	}
	return dir, prog
}

// putFile writes a file whole (through a rename): the script waiting for
// it never reads half of it.
func putFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path+".tmp", []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// crushPane opens a session whose one window runs argv, wide enough for
// the fixture's dialog, and waits for the dialog on its screen.
func crushPane(hw *herdrWorld, session string, argv ...string) string {
	hw.t.Helper()
	id := str(hw.r.must("new-session", map[string]any{"name": session, "argv": argv, "cols": 120, "rows": 40})["window_id"])
	hw.r.must("wait-for", map[string]any{"window": id, "session": session, "condition": "window-output", "pattern": "Permission Required", "timeout": 10000})
	return id
}

func TestCrushWorkingWhileTheDialogIsUpKeepsNeedsInput(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	dir, prog := crushStandIn(t, "crush", true)
	a := crushPane(hw, "work", prog)

	// Crush ≤ v0.97.1: blocked, then working while the dialog stays up.
	putFile(t, filepath.Join(dir, "req1"), reportLine("@PANE@", "crush", "blocked", 1, "")+"\n"+reportLine("@PANE@", "crush", "working", 2, `,"message":"thinking"`)+"\n")
	eventually(t, "the reporter's first run ends", func() bool { return fileExists(filepath.Join(dir, "step1")) })
	out, _ := os.ReadFile(filepath.Join(dir, "out-req1"))
	for _, ans := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if errCodeOf(ans) != "" || !strings.Contains(ans, `"ok"`) {
			t.Fatalf("answers: %q", out)
		}
	}
	if st := hw.state(a); st["state"] != "needs_input" || st["message"] == "thinking" {
		t.Fatalf("working while the dialog is up: %v", st)
	}

	// The dialog closes (a key, then the screen is cleared): the next
	// working report applies.
	hw.r.must("send-text", map[string]any{"window": a, "text": "x"})
	eventually(t, "the dialog leaves the screen", func() bool {
		return !strings.Contains(str(hw.r.must("capture-pane", map[string]any{"window": a})["content"]), "Permission Required")
	})
	putFile(t, filepath.Join(dir, "req2"), reportLine("@PANE@", "crush", "working", 3, `,"message":"thinking"`)+"\n")
	eventually(t, "the reporter's second run ends", func() bool { return fileExists(filepath.Join(dir, "step2")) })
	if st := hw.state(a); st["state"] != "working" || st["message"] != "thinking" {
		out, _ := os.ReadFile(filepath.Join(dir, "out-req2"))
		t.Fatalf("working after the dialog closed: %v (%s)", st, out)
	}
}

func TestCrushRespondNeedsACrushProcess(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	person := personRPC(t, hw.sock)

	// The same dialog from a program not named crush, taken for Crush by
	// the TUIOS_AGENT hint: refused, nothing pressed.
	fakeDir, fake := crushStandIn(t, "fakeagent", false)
	f := crushPane(hw, "fake", "env", "TUIOS_AGENT=crush", fake)
	hw.r.must("wait-for", map[string]any{"session": "fake", "window": f, "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	pk := person.must("peek-prompt", map[string]any{"session": "fake", "window": f})
	if pk["found"] != true || pk["harness"] != "crush" {
		t.Fatalf("peek of the look-alike: %v", pk)
	}
	_, perr := person.call("respond", map[string]any{"session": "fake", "window": f, "action": "approve", "prompt_id": pk["prompt_id"], "risk_ack": pk["risk"], "timeout": 2000})
	if perr == nil || perr.Code != "invalid_params" || !strings.Contains(perr.Message, "no crush process") {
		t.Fatalf("respond without a crush process: %+v", perr)
	}
	// The first key the look-alike reads is one typed after the refusal:
	// the refused respond pressed nothing before it (the pane's input is
	// one queue).
	eventually(t, "the look-alike waits for a key", func() bool { return fileExists(filepath.Join(fakeDir, "step1")) })
	hw.r.must("send-text", map[string]any{"window": f, "text": "z"})
	var b []byte
	eventually(t, "the look-alike reads a key", func() bool { b, _ = os.ReadFile(filepath.Join(fakeDir, "key")); return len(b) > 0 })
	if string(b) != "z" {
		t.Fatalf("a key (%q) was pressed in the look-alike's pane", b)
	}

	// The crush-named program: approve presses a.
	dir, prog := crushStandIn(t, "crush", false)
	c := crushPane(hw, "real", prog)
	hw.r.must("wait-for", map[string]any{"session": "real", "window": c, "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	eventually(t, "the script waits for a key", func() bool { return fileExists(filepath.Join(dir, "step1")) })
	pk = person.must("peek-prompt", map[string]any{"session": "real", "window": c})
	res, perr := person.call("respond", map[string]any{"session": "real", "window": c, "action": "approve", "prompt_id": pk["prompt_id"], "risk_ack": pk["risk"], "timeout": 3000})
	if perr != nil {
		t.Fatalf("respond with a crush process: %+v (peek %v)", perr, pk)
	}
	if fmt.Sprint(res["sent"]) != "[a]" {
		t.Fatalf("respond: %v", res)
	}
	eventually(t, "the script reads the key", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "key"))
		return string(b) == "a"
	})
}
