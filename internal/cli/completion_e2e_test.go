package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCompletionScriptsInRealShells(t *testing.T) {
	t.Parallel()
	bin := tuiosBin(t)
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"),
		"TUIOS_SOCKET="+filepath.Join(t.TempDir(), "none", "tuios.sock")) // no daemon: names stay empty, quickly
	t.Run("bash", func(t *testing.T) {
		if _, err := exec.LookPath("bash"); err != nil {
			t.Skip("no bash")
		}
		script := `source <(tuios completion bash)
COMP_WORDS=(tuios hosts te); COMP_CWORD=2; _tuios; echo "${COMPREPLY[*]}"
COMP_WORDS=(tuios capture-pane --scr); COMP_CWORD=2; _tuios; echo "${COMPREPLY[*]}"`
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if got := strings.Split(strings.TrimSpace(string(out)), "\n"); len(got) != 2 || got[0] != "test" || got[1] != "--scrollback" {
			t.Fatalf("bash completed %q", got)
		}
	})
	t.Run("fish", func(t *testing.T) {
		if _, err := exec.LookPath("fish"); err != nil {
			t.Skip("no fish")
		}
		cmd := exec.Command("fish", "-c", "tuios completion fish | source; complete -C 'tuios hosts te'")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "test\tdial a host once") {
			t.Fatalf("fish completed %q (%v)", out, err)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		tm, err := exec.LookPath("tmux")
		if _, zerr := exec.LookPath("zsh"); zerr != nil || err != nil {
			t.Skip("no zsh or no tmux")
		}
		// An interactive zsh, as a person has it: the script on fpath,
		// compinit, then Tab typed after a partial word.
		dir := t.TempDir()
		script, err := exec.Command(bin, "completion", "zsh").Output()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "_tuios"), script, 0o644)
		os.WriteFile(filepath.Join(dir, ".zshrc"), []byte("fpath=("+dir+" $fpath)\nautoload -Uz compinit\ncompinit -u -D\nPROMPT='> '\n"), 0o644)
		sock := filepath.Join(dir, "tmux.sock")
		tmux := func(args ...string) string {
			out, _ := exec.Command(tm, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
			return string(out)
		}
		zenv := append(env, "ZDOTDIR="+dir)
		start := exec.Command(tm, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "10", "zsh", "-i")
		start.Env = zenv
		if out, err := start.CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v %s", err, out)
		}
		defer tmux("kill-server")
		waitScreen(t, tmux, ">") // capture-pane drops the blank after it
		tmux("send-keys", "tuios hosts te", "Tab")
		waitScreen(t, tmux, "tuios hosts test")
	})
}

// waitScreen waits until the tmux pane shows want.
func waitScreen(t *testing.T, tmux func(...string) string, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		screen := tmux("capture-pane", "-p")
		if strings.Contains(screen, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", want, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The names a Tab offers for -s and -w are the running daemon's.
func TestCompletionAsksTheDaemonForNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "api", "--detach")
	e.ok("new-window", "-s", "api", "build")
	if out := e.ok("__complete", "send-text", "-s", ""); !strings.Contains(out, "api\t") {
		t.Fatalf("sessions: %q", out)
	}
	if out := e.ok("__complete", "send-text", "-s", "api", "-w", "bu"); !strings.HasPrefix(out, "build\t") {
		t.Fatalf("windows: %q", out)
	}
}
