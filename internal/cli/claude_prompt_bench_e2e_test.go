package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/standin"
	"github.com/tuios/tuios/pty"
)

// How long after real Claude Code paints a permission dialog the pane
// reads needs_input, with no hook and its transcript joined. The SDK's
// tracker runs in this process over a real shell on a real PTY (the
// daemon runs the same tracker), so the moment the dialog is painted is
// exact: the chunk after which the screen first holds both the question
// and its numbered answer, which is what the screen rule reads. Each
// iteration is one turn: a prompt, the stand-in's one Bash call, the
// dialog, an approval, the turn's end (done from the transcript).
//
//	go test -run '^$' -bench RealClaudeCodePermissionPrompt -benchtime 10x ./internal/cli/
//
// It reports the median and the worst lag, and how many iterations had
// the transcript joined when the dialog came (joined). The machine is
// shared, so read the median.
// promptGiveUp is the longest the benchmark waits for needs_input.
const promptGiveUp = 20 * time.Second

func BenchmarkRealClaudeCodePermissionPrompt(b *testing.B) {
	in := findClaude(b)
	if in.stub {
		b.Skip("this Claude Code install has npm's stub as bin/claude.exe (postinstall not run)")
	}
	api, err := standin.Start(standin.Options{Answer: func(r standin.Request) (standin.Reply, bool) {
		if len(r.Tools) == 0 {
			return standin.Reply{}, false
		}
		if r.ToolResult {
			return standin.Reply{Text: "Done: the command ran.", Delay: 200 * time.Millisecond}, true
		}
		return standin.Reply{Tools: []standin.ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo tuios-prompt-bench > made.txt", "description": "Write made.txt"}}},
			Delay: 300 * time.Millisecond}, true
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer api.Close()

	dir, err := os.MkdirTemp("", "tu")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(work, 0o755)
	if w, err := filepath.EvalSymlinks(work); err == nil {
		work = w
	}
	seedClaudeHome(b, home, work)

	watcher, err := transcript.NewWatcher(transcript.WatcherOptions{})
	if err != nil {
		b.Skip(err)
	}
	defer watcher.Close()
	tr := detect.NewTracker(detect.TrackerOptions{Home: home, Watcher: watcher})
	defer tr.Close()
	env := []string{
		"PATH=" + filepath.Dir(in.shim) + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TERM=xterm-256color", "PS1=$ ", "ENV=",
		"ANTHROPIC_BASE_URL=" + api.URL(), "ANTHROPIC_API_KEY=" + standinKey,
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	proc, err := pty.Start(pty.Options{Argv: []string{"sh", "-i"}, Env: env, Dir: work, Cols: 120, Rows: 40})
	if err != nil {
		b.Fatal(err)
	}
	pane := tr.Attach("w", detect.PaneOptions{ShellPID: proc.Pid(), Cols: 120, Rows: 40, Reply: proc})

	// The reader notes when the dialog is first whole on the screen.
	var mu sync.Mutex
	var paintedAt time.Time
	var paintedOver agentstate.Source // who held the pane when the dialog came
	painted := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := proc.Read(buf)
			if n > 0 {
				pane.Write(buf[:n])
				at := time.Now()
				tail := strings.Join(pane.Screen().Tail(12), "\n")
				mu.Lock()
				if paintedAt.IsZero() && strings.Contains(tail, "Do you want") && strings.Contains(tail, "1. Yes") {
					paintedAt = at
					paintedOver = tr.Arbiter().Get("w").Source
					select {
					case painted <- struct{}{}:
					default:
					}
				}
				mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() { proc.Close(); <-done }()

	waitScreen := func(s string) {
		b.Helper()
		for deadline := time.Now().Add(60 * time.Second); !strings.Contains(pane.Screen().Text(), s); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("the screen never showed %q:\n%s", s, pane.Screen().Text())
			}
		}
	}
	arb := tr.Arbiter()
	waitState := func(s agentstate.State) agentstate.Snapshot {
		b.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		snap, err := arb.Wait(ctx, "w", agentstate.SetOf(s))
		if err != nil {
			b.Fatalf("the pane never read %s (now %+v):\n%s", s, arb.Get("w"), pane.Screen().Text())
		}
		return snap
	}

	time.Sleep(300 * time.Millisecond)
	proc.Write([]byte("claude\n"))
	waitScreen("for shortcuts")
	statuses := watchSessionStatus(b, filepath.Join(home, ".claude", "sessions"))
	var lags, waitingLags, idleLags []time.Duration
	joined := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mu.Lock()
		paintedAt = time.Time{}
		mu.Unlock()
		began := time.Now()
		sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: "w", Buffer: 256})
		proc.Write([]byte("Run the command"))
		time.Sleep(300 * time.Millisecond) // Claude Code takes a fast Enter after text as part of a paste
		proc.Write([]byte("\r"))
		select {
		case <-painted:
		case <-time.After(60 * time.Second):
			b.Fatalf("no permission dialog:\n%s", pane.Screen().Text())
		}
		mu.Lock()
		at, over := paintedAt, paintedOver
		mu.Unlock()
		if over == agentstate.SourceTranscript {
			joined++
		}
		// A dialog that never reads needs_input counts as promptGiveUp
		// (and is logged), so a slow build still gives its figures.
		var needed time.Time
		for deadline := time.After(promptGiveUp); needed.IsZero(); {
			select {
			case c := <-sub.C:
				if c.To == agentstate.NeedsInput {
					needed = c.At
				}
			case <-deadline:
				b.Logf("iteration %d: no needs_input %v after the dialog (now %s from %s)", i, promptGiveUp, arb.Get("w").State, arb.Get("w").SourceName())
				needed = at.Add(promptGiveUp)
			}
		}
		sub.Close()
		lags = append(lags, needed.Sub(at))
		proc.Write([]byte("\r")) // "1. Yes" is selected
		doneAt := waitState(agentstate.Done).StateAt
		// What Claude Code's session file said meanwhile: when it said
		// waiting (against the paint), and idle (against done from the
		// transcript).
		time.Sleep(200 * time.Millisecond)
		var seq []string
		for _, st := range statuses() {
			if st.at.Before(began) {
				continue
			}
			seq = append(seq, st.status+"@"+st.at.Sub(began).Round(time.Millisecond).String())
			if st.status == "waiting" && st.waitingFor == "permission prompt" {
				waitingLags = append(waitingLags, st.at.Sub(at))
			}
			if st.status == "idle" && st.at.After(at) {
				idleLags = append(idleLags, st.at.Sub(doneAt))
			}
		}
		if i == 0 {
			b.Logf("session file status over the turn: %v (dialog painted @%v, done @%v)", seq, at.Sub(began).Round(time.Millisecond), doneAt.Sub(began).Round(time.Millisecond))
		}
	}
	b.StopTimer()
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lags[len(lags)-1].Microseconds())/1000, "ms-worst")
	b.ReportMetric(float64(joined), "joined")
	b.Logf("lags %v", lags)
	if len(waitingLags) > 0 && len(idleLags) > 0 {
		slices.Sort(waitingLags)
		slices.Sort(idleLags)
		b.ReportMetric(float64(waitingLags[len(waitingLags)/2].Microseconds())/1000, "ms-status-waiting-after-paint")
		b.ReportMetric(float64(idleLags[len(idleLags)/2].Microseconds())/1000, "ms-status-idle-after-done")
		b.Logf("status waiting after the paint %v; status idle after done %v", waitingLags, idleLags)
	}
	proc.Write([]byte{3})
	proc.Write([]byte{3})
}

// sessionStatus is one value Claude Code's session file took.
type sessionStatus struct {
	at                 time.Time
	status, waitingFor string
}

// watchSessionStatus polls (every 5 ms) the session files in dir and
// records each change of status; the function returns them so far.
func watchSessionStatus(b *testing.B, dir string) func() []sessionStatus {
	var mu sync.Mutex
	var list []sessionStatus
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		last := ""
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			for _, f := range files {
				var sf struct {
					Status     string `json:"status"`
					WaitingFor string `json:"waitingFor"`
				}
				raw, err := os.ReadFile(f)
				if err != nil || json.Unmarshal(raw, &sf) != nil {
					continue
				}
				if k := sf.Status + "/" + sf.WaitingFor; k != last {
					last = k
					mu.Lock()
					list = append(list, sessionStatus{time.Now(), sf.Status, sf.WaitingFor})
					mu.Unlock()
				}
			}
		}
	}()
	b.Cleanup(func() { close(stop); <-done })
	return func() []sessionStatus {
		mu.Lock()
		defer mu.Unlock()
		return append([]sessionStatus(nil), list...)
	}
}
