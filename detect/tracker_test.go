package detect_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/pty"
)

var (
	agentOnce sync.Once
	agentDir  string
	agentErr  error
)

// TestMain removes the pretend agent the tracker tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if agentDir != "" {
		os.RemoveAll(agentDir)
	}
	os.Exit(code)
}

// agentBin builds examples/pretend-agent once, as a program named claude:
// its comm is then "claude", which the claude-code manifest recognises.
func agentBin(t testing.TB) string {
	t.Helper()
	agentOnce.Do(func() {
		agentDir, agentErr = os.MkdirTemp("", "tuios-pretend-")
		if agentErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(agentDir, "claude"), "../examples/pretend-agent").CombinedOutput()
		if err != nil {
			agentErr = &buildError{string(out)}
		}
	})
	if agentErr != nil {
		t.Fatal(agentErr)
	}
	return agentDir
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "building the pretend agent: " + e.out }

// rig is a tracker on a fake clock with one real shell on a real PTY.
type rig struct {
	t     *testing.T
	clock *fakeclock.Clock
	tr    *detect.Tracker
	proc  *pty.Process
	pane  *detect.Pane
	done  chan struct{}
	// chunks read from the PTY, and chunks whose Write returned: equal,
	// no chunk is inside the tracker.
	read, written atomic.Int64
}

func newTrackerRig(t *testing.T, opt detect.TrackerOptions) *rig {
	t.Helper()
	return newTrackerRigClock(t, fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)), opt)
}

// newTranscriptRig is a rig whose tracker has a home of its own (home)
// and a transcript watcher (w) on the rig's fake clock, and a folder for
// the agent to work in (work); it skips where no watcher can be made.
func newTranscriptRig(t *testing.T) (r *rig, w *transcript.Watcher, home, work string) {
	t.Helper()
	home, work = t.TempDir(), t.TempDir()
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := transcript.NewWatcher(transcript.WatcherOptions{Clock: clock})
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { w.Close() })
	r = newTrackerRigClock(t, clock, detect.TrackerOptions{StallAfter: -1, Home: home, Watcher: w})
	return r, w, home, work
}

func newTrackerRigClock(t *testing.T, clock *fakeclock.Clock, opt detect.TrackerOptions) *rig {
	t.Helper()
	bin := agentBin(t)
	opt.Clock = clock
	tr := detect.NewTracker(opt)
	env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "TERM=xterm-256color", "PS1=$ ", "ENV="}
	proc, err := pty.Start(pty.Options{Argv: []string{"sh", "-i"}, Env: env, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, clock: clock, tr: tr, proc: proc, done: make(chan struct{})}
	r.pane = tr.Attach("w", detect.PaneOptions{ShellPID: proc.Pid(), Cols: 100, Rows: 30, Reply: proc})
	go func() {
		defer close(r.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := proc.Read(buf)
			if n > 0 {
				r.read.Add(1)
				r.pane.Write(buf[:n])
				r.written.Add(1)
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		proc.Close()
		<-r.done
		tr.Close()
	})
	r.waitScreen("$")
	return r
}

func (r *rig) typeLine(s string) { r.proc.Write([]byte(s + "\n")) }

// hooklessSearch is how long after an agent appears (with no session file:
// the pretend agent writes none) a hookless pane has searched for its
// transcript by verification: the session file's wait, then a tick.
const hooklessSearch = detect.SessionFileWait + detect.DefaultDetectInterval

// waitScreen waits (bounded) until the pane's screen shows s and the
// chunk that painted it has been through the tracker (its Write returned,
// so the looks and reads it asked for are armed).
func (r *rig) waitScreen(s string) {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(r.pane.Screen().Text(), s) || r.read.Load() != r.written.Load() {
		if time.Now().After(deadline) {
			r.t.Fatalf("the screen never showed %q:\n%s", s, r.pane.Screen().Text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *rig) state() agentstate.Snapshot { return r.tr.Arbiter().Get("w") }

func (r *rig) want(s agentstate.State, src string) agentstate.Snapshot {
	r.t.Helper()
	got := r.state()
	if got.State != s || got.SourceName() != src {
		r.t.Fatalf("pane: %s from %q (%q), want %s from %q\n%s", got.State, got.SourceName(), got.Message, s, src, r.pane.Screen().Text())
	}
	return got
}

func TestTrackerReadsThePromptWithinTheSettleDelay(t *testing.T) {
	t.Parallel() // its own shell, PTY and fake clock
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.typeLine("claude -as '' -steps 30 -step 100ms")
	r.waitScreen("Reading the tree")
	r.clock.Advance(detect.DefaultDetectInterval) // the detection tick
	got := r.want(agentstate.Working, "detect")
	if got.Harness != "claude-code" || got.Identity != agentstate.IdentityManifest {
		t.Fatalf("attributed to %q by %q", got.Harness, got.Identity)
	}
	sub := r.tr.Arbiter().Subscribe(agentstate.SubscribeOptions{Pane: "w"})
	defer sub.Close()
	r.waitScreen("2. No, and tell")
	r.waitScreen("╰")
	painted := r.clock.Now() // every chunk of the prompt arrived at this fake time
	r.clock.Advance(detect.SettleDelay - time.Millisecond)
	r.want(agentstate.Working, "detect")
	r.clock.Advance(time.Millisecond)
	got = r.want(agentstate.NeedsInput, "screen")
	if got.Message != "approval: Do you want to proceed?" {
		t.Fatalf("message %q", got.Message)
	}
	var c agentstate.Change
	for c = range sub.C {
		if c.To == agentstate.NeedsInput {
			break
		}
	}
	if lag := c.At.Sub(painted); lag > 450*time.Millisecond {
		t.Fatalf("needs_input %v after the prompt's last byte", lag)
	}

	// The person answers; the prompt is painted over; the loan returns.
	// The screen may show the repaint a moment before the tracker has
	// armed its look for it, so the fake clock is moved on until the look
	// ran (bounded), never by more than one settle delay at a time.
	r.proc.Write([]byte("1"))
	r.waitScreen("Allowed")
	for deadline := time.Now().Add(15 * time.Second); r.state().State != agentstate.Working && time.Now().Before(deadline); {
		r.clock.Advance(detect.SettleDelay)
		time.Sleep(5 * time.Millisecond)
	}
	r.want(agentstate.Working, "detect")
}

func TestTrackerLoanOverAHookThatWentQuiet(t *testing.T) {
	t.Parallel() // its own shell, PTY and fake clock
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.typeLine("claude -as '' -steps 30 -step 100ms")
	r.waitScreen("Reading the tree")
	r.clock.Advance(detect.DefaultDetectInterval)
	reported := r.clock.Now()
	r.pane.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code", Message: "running tools"}, "")
	r.clock.Advance(100 * time.Millisecond)
	r.waitScreen("╰")
	r.clock.Advance(detect.SettleDelay)
	r.want(agentstate.Working, "report") // a fresh report is not second-guessed
	r.clock.Set(reported.Add(2 * time.Second))
	got := r.want(agentstate.NeedsInput, "screen")
	if !got.Loan || got.Prior.Source != agentstate.SourceReport || got.Prior.State != agentstate.Working {
		t.Fatalf("loan %v prior %+v", got.Loan, got.Prior)
	}
	r.proc.Write([]byte("1"))
	r.waitScreen("Allowed")
	r.clock.Advance(detect.SettleDelay)
	r.want(agentstate.Working, "report")
}

func TestTrackerOSCProgressFlapProducesNoTransition(t *testing.T) {
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1, DetectInterval: -1})
	r.pane.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceOSC}, "")
	v := r.state().Version
	sub := r.tr.Arbiter().Subscribe(agentstate.SubscribeOptions{Pane: "w"})
	defer sub.Close()
	r.typeLine(`printf '\033]9;4;0\007A%s\n' 1`)
	r.waitScreen("A1")
	r.clock.Advance(50 * time.Millisecond)
	r.typeLine(`printf '\033]9;4;3\007B%s\n' 2`)
	r.waitScreen("B2")
	r.clock.Advance(2 * time.Second)
	if got := r.want(agentstate.Working, "osc"); got.Version != v {
		t.Fatalf("the flap moved the version %d → %d", v, got.Version)
	}
	select {
	case c := <-sub.C:
		t.Fatalf("a flap produced %+v", c)
	default:
	}
	// A clear that stands is published after the hold.
	r.typeLine(`printf '\033]9;4;0\007C%s\n' 3`)
	r.waitScreen("C3")
	r.clock.Advance(699 * time.Millisecond)
	r.want(agentstate.Working, "osc")
	r.clock.Advance(time.Millisecond)
	r.want(agentstate.Idle, "osc")
}

func TestTrackerIgnoresAPlainShellsProgressBar(t *testing.T) {
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1, DetectInterval: -1})
	r.typeLine(`printf '\033]9;4;3\007D%s\n' 4`)
	r.waitScreen("D4")
	if got := r.state(); got.State != agentstate.None {
		t.Fatalf("a plain shell's progress bar set %s", got.State)
	}
}

func TestTrackerStallLooksThenGoesUnknown(t *testing.T) {
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: 5 * time.Second})
	r.typeLine("claude -as '' -silence -steps 1 -step 10ms")
	r.waitScreen("never answers")
	r.clock.Advance(detect.DefaultDetectInterval)
	r.want(agentstate.Working, "detect")
	r.clock.Advance(5 * time.Second)
	r.want(agentstate.Unknown, "stall")
}

func TestTrackerAttributesBehindTimeoutAndClearsWhenTheAgentExits(t *testing.T) {
	t.Parallel() // its own shell, PTY and fake clock
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.typeLine("timeout 60 claude -as '' -prompt=false -steps 20 -step 100ms -exit; echo back-at-$((1+1))")
	r.waitScreen("Reading the tree")
	r.clock.Advance(detect.DefaultDetectInterval)
	r.want(agentstate.Working, "detect")
	m, err := r.tr.Detector().Detect(r.proc.Pid())
	if err != nil || m.HarnessID != "claude-code" || len(m.Via) == 0 || m.Via[0] != "timeout" {
		t.Fatalf("match %+v %v", m, err)
	}
	r.waitScreen("back-at-2")
	r.clock.Advance(detect.DefaultDetectInterval)
	r.want(agentstate.None, "")
}

// The reads that follow output come at most every ReconcileInterval while
// an agent is in front, so a pane whose agent just quit still shows it
// until the next one; ReadForeground reads now and clears it.
func TestReadForegroundClearsAnAgentThatJustLeft(t *testing.T) {
	t.Parallel() // its own shell, PTY and fake clock
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.typeLine("claude -as '' -prompt=false -steps 10 -step 100ms -exit; echo back-at-$((1+1))")
	r.waitScreen("Reading the tree")
	r.clock.Advance(detect.DefaultDetectInterval)
	r.want(agentstate.Working, "detect")
	r.waitScreen("back-at-2") // the fake clock stands still: no read follows
	if got := r.state(); got.Harness != "claude-code" || !r.pane.Foreground().Agent {
		t.Fatalf("before reading: %s %q, foreground %+v", got.State, got.Harness, r.pane.Foreground())
	}
	if m := r.pane.ReadForeground(); m.Agent || !m.AtShell {
		t.Fatalf("read: %+v, want the shell in front", m)
	}
	r.want(agentstate.None, "")
}

func TestASilentPaneCostsNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.clock.Advance(time.Second) // any settle look has run
	// The only timer is the shared detection tick; the only goroutine is
	// the PTY reader (and creack/pty's own waiter).
	if n := r.clock.Pending(); n != 1 {
		t.Fatalf("%d timers for one silent pane", n)
	}
	if n := runtime.NumGoroutine() - before; n > 2 {
		t.Fatalf("%d goroutines for one silent pane", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.tr.Arbiter().Wait(ctx, "w", agentstate.SetOf(agentstate.Working)); err == nil {
		t.Fatal("a silent shell pane became an agent")
	}
}

// A hookless claude pane joins its transcript by a verified search and
// follows it: end_turn reads done at source transcript, a new prompt reads
// working, and a deleted file ends the join after three missing reads.
func TestTrackerFollowsTheTranscript(t *testing.T) {
	r, _, home, work := newTranscriptRig(t)
	dir := filepath.Join(home, ".claude", "projects", transcript.ProjectName(work))
	os.MkdirAll(dir, 0o700)
	file := filepath.Join(dir, "s.jsonl")
	rec := func(typ, stop string) string {
		return `{"type":"` + typ + `","sessionId":"s","cwd":"` + work + `","version":"claude","message":{"content":"secret","stop_reason":"` + stop + `"}}` + "\n"
	}
	os.WriteFile(file, []byte(rec("user", "")+rec("assistant", "end_turn")), 0o600)

	r.typeLine("cd " + work + " && claude -as '' -silence -steps 1 -step 10ms")
	r.waitScreen("never answers")
	writtenNow(t, file)
	r.clock.Advance(hooklessSearch)
	r.want(agentstate.Done, "transcript")

	base := r.clock.Pending()
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(rec("user", ""))
	f.Close()
	deadline := time.Now().Add(10 * time.Second)
	for r.clock.Pending() <= base { // the watcher armed its debounce
		if time.Now().After(deadline) {
			t.Fatal("no inotify event for the append")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.clock.Advance(200 * time.Millisecond)
	r.want(agentstate.Working, "transcript")

	// Deleted: three missing reads end the join and yield the claim.
	os.Remove(file)
	deadline = time.Now().Add(10 * time.Second)
	for r.clock.Pending() <= base { // the watcher saw the removal
		if time.Now().After(deadline) {
			t.Fatal("no inotify event for the removal")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.clock.Advance(200 * time.Millisecond) // missing read 1
	for i := 0; i < 2; i++ {
		r.clock.Advance(detect.DefaultDetectInterval) // missing reads 2 and 3, on the tick
	}
	got := r.state()
	if got.Claimed && got.Source == agentstate.SourceTranscript {
		t.Fatalf("the transcript still owns the pane after its file went: %+v", got)
	}
}
