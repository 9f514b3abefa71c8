package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The speed of a fan: tuios fan 16 of the pretend agent, from the call to
// the last prompt sent (--wait returns then), beside git worktree add
// alone, 16 times, on the same repository in the same run. The pretend
// agent reports its turn done (OSC 7501), so each is ready a second after
// it drew its prompt (the rest a prompt waits for, as the queue's).
//
//	go test -run XXX -bench 'Fan16|WorktreeAdd16' -benchtime 5x ./internal/cli/
func BenchmarkFan16PretendAgent(b *testing.B) { benchFan16(b, true) }

// BenchmarkFan16Started is the call alone: 16 worktrees, sessions and
// agents started, the prompts pending.
func BenchmarkFan16Started(b *testing.B) { benchFan16(b, false) }

func benchFan16(b *testing.B, wait bool) {
	e := newEnv(b)
	repo := fanRepo(b, e)
	agent := e.bin + " pretend-agent -prompt=false -steps 1 -step 20ms -finish done"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		args := []string{"fan", "16", "go", "--agent", agent, "--name", fmt.Sprintf("b%d", i), "--repo", repo, "--json"}
		if wait {
			args = append(args, "--wait")
		}
		r := e.run(args...)
		b.StopTimer()
		if r.code != 0 || wait && strings.Count(r.out, `"prompt_status": "sent"`) != 16 {
			b.Fatalf("fan 16: %+v", r)
		}
		for j := 1; j <= 16; j++ {
			s := fmt.Sprintf("api-fan-b%d", i)
			if j > 1 {
				s += fmt.Sprintf("-%d", j)
			}
			e.ok("worktree", "rm", s, "--force")
		}
		b.StartTimer()
	}
}

func BenchmarkGitWorktreeAdd16(b *testing.B) {
	e := newEnv(b)
	repo := fanRepo(b, e)
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 1; j <= 16; j++ {
			cmd := exec.Command("git", "worktree", "add", "-q", "--no-track", "-b", fmt.Sprintf("plain/%d-%d", i, j), filepath.Join(dir, fmt.Sprintf("%d-%d", i, j)), "HEAD")
			cmd.Dir, cmd.Env = repo, e.vars
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
		b.StopTimer()
		for j := 1; j <= 16; j++ {
			e.git(repo, "worktree", "remove", "--force", filepath.Join(dir, fmt.Sprintf("%d-%d", i, j)))
		}
		os.RemoveAll(dir)
		b.StartTimer()
	}
}
