package cli_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The README's quick start, key for key, in a real terminal (tmux): start
// with `tuios`, open a window with ctrl+b c, run `tuios pretend-agent`,
// answer its prompt from the Inbox (ctrl+b i, space, 1, 1 again for the
// risky rm -rf, q), detach with ctrl+b d, and find the session still
// running. Each step waits on what the README says the person sees.
func TestReadmeQuickStart(t *testing.T) {
	t.Parallel()
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	e := newEnv(t)
	tmux := func(args ...string) string {
		cmd := exec.Command(tm, append([]string{"-L", "qs-" + filepath.Base(e.dir), "-f", "/dev/null"}, args...)...)
		cmd.Env = e.vars
		out, err := cmd.CombinedOutput()
		if err != nil && args[0] != "kill-server" {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	screenShows := func(want string, within time.Duration) (string, bool) {
		deadline := time.Now().Add(within)
		for {
			s := tmux("capture-pane", "-p")
			if strings.Contains(s, want) {
				return s, true
			}
			if time.Now().After(deadline) {
				return s, false
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	see := func(step, want string) {
		t.Helper()
		if s, ok := screenShows(want, 30*time.Second); !ok {
			t.Fatalf("%s: the screen never showed %q:\n%s", step, want, s)
		}
	}

	tmux("new-session", "-d", "-x", "120", "-y", "36", "sh")
	// 1. Start: tuios attaches to a session it makes, named 0.
	tmux("send-keys", "tuios", "Enter")
	see("tuios", "[0] 1*")
	// 2. Open a window: ctrl+b c. Its title bar (index 1) joins the first.
	tmux("send-keys", "C-b", "c")
	see("ctrl+b c", "┬ 1:")
	// 3. Run the pretend agent in it: it stops on its permission prompt.
	tmux("send-keys", "tuios pretend-agent", "Enter")
	e.ok("wait-for", "agent-state", "-s", "0", "--until", "needs_input", "--timeout", "30000")
	see("tuios pretend-agent", "needs input")
	see("tuios pretend-agent", "Do you want to proceed?")
	// 4. Answer it from the Inbox.
	tmux("send-keys", "C-b", "i")
	see("ctrl+b i", "Approvals (1)")
	tmux("send-keys", "Space")
	see("space", "1. Yes")
	// An answer counts once the prompt has stood still for 0.4 s: press 1
	// until the Inbox asks for the second press a risky allow needs.
	asked := false
	for range 20 {
		tmux("send-keys", "1")
		if _, ok := screenShows("Press 1 again", time.Second); ok {
			asked = true
			break
		}
	}
	if !asked {
		t.Fatalf("1 on the risky prompt never asked for a second press:\n%s", tmux("capture-pane", "-p"))
	}
	tmux("send-keys", "1")
	see("1 again", "Nothing waits for you")
	tmux("send-keys", "q")
	see("q", "Done: tidy the build directory.")
	// 5. Detach: the session keeps running.
	tmux("send-keys", "C-b", "d")
	see("ctrl+b d", "[detached (from session 0)]")
	var ls struct {
		Sessions []struct {
			Name string `json:"name"`
		} `json:"sessions"`
	}
	e.json(&ls, "ls")
	if len(ls.Sessions) != 1 || ls.Sessions[0].Name != "0" {
		t.Fatalf("after detaching, tuios ls --json lists %+v, want the session 0", ls.Sessions)
	}
}
