package daemon

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// report sets the worker's state as a harness's hooks (or a protocol
// agent) would, naming the harness, and waits until it reads back.
func (g *queueRig) report(harness, st string) {
	g.t.Helper()
	g.r.must("set-agent-state", map[string]any{"session": "q", "window": g.w, "state": st, "harness": harness})
	eventually(g.t, harness+" "+st, func() bool {
		s := g.r.must("get-agent-state", map[string]any{"window": g.w})
		return str(s["state"]) == st && str(s["harness_id"]) == harness
	})
}

// What the manifests and hook maps say each harness can show, as the
// queue reads them: goose's manifest has only a needs_input screen rule
// and it has no hooks (never idle, never working); aider has no screen
// tier, so a stalled turn turns idle; Claude Code's and Qwen Code's hooks
// report both.
func TestQueueRestSigns(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	for h, want := range map[string]restSigns{
		"goose":       {idle: false, working: false},
		"aider":       {idle: true, working: false},
		"claude-code": {idle: true, working: true},
		"qwen":        {idle: true, working: true},
		"":            {idle: true, working: false},
	} {
		if got := g.srv.queue.signs(h); got != want {
			t.Errorf("%q: %+v, want %+v", h, got, want)
		}
	}
}

// Unknown is a rest only for a harness that can never show idle.
func TestQueueUnknownIsARestOnlyWhereIdleNeverComes(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.queue("hello", nil)
	g.report("claude-code", "unknown")
	g.clk.Advance(time.Minute)
	if got := g.got(); len(got) != 0 {
		t.Fatalf("typed into a Claude Code pane on unknown: %q", got)
	}
	if _, armed := g.srv.queue.armedFor(g.w); armed {
		t.Fatal("a timer is armed on unknown for a harness that shows idle")
	}
	rest := g.clk.Now()
	g.report("goose", "unknown")
	g.waitArmed(rest.Add(queueRest))
	g.clk.Advance(queueRest)
	if got := g.waitGot(1); got[0] != "hello" {
		t.Fatalf("the pane got %q", got)
	}
}

// A harness that cannot show working: the first entry goes at the usual
// rest; its output (the pane echoing it) both ends its gate and is the
// new output whose 5 s of silence is the rest the second one needs. The
// pane never leaves idle meanwhile.
func TestQueueQuietRestWhereWorkingNeverComes(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.report("goose", "idle")
	g.queue("first", nil)
	g.queue("second", nil)
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.waitGot(1)
	g.waitState("q1", "")
	// The echo was heard after the Enter: the timer is armed 5 s after it.
	heard := g.clk.Now()
	g.waitArmed(heard.Add(queueQuiet))
	g.clk.Advance(queueQuiet - time.Millisecond)
	// 1 ms short of the silence: its timer still waits, and nothing else
	// typed the second.
	if due, armed := g.srv.queue.armedFor(g.w); !armed || !due.Equal(heard.Add(queueQuiet)) {
		t.Fatalf("1 ms before 5 s of silence the queue's timer is armed %v for %v", armed, due)
	}
	if got := g.got(); len(got) != 1 {
		t.Fatalf("the second went before 5 s of silence: %q", got)
	}
	g.clk.Advance(time.Millisecond)
	if got := g.waitGot(2); got[1] != "second" {
		t.Fatalf("the pane got %q", got)
	}
	if st := g.srv.tracker.Arbiter().Get(g.w).State; st != agentstate.Idle {
		t.Fatalf("the pane left idle: %v", st)
	}
	// The queue is empty: nothing watches the pane's output any more.
	g.waitState("q2", "")
	eventually(t, "the watcher stops", func() bool {
		output, timer := g.srv.queue.Watching(g.w)
		return !output && !timer
	})
}

// A harness that shows working is never looked at on a timer for
// silence: with nothing said after the Enter, the next entry waits.
func TestQueueNoQuietRestWhereWorkingComes(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "idle")
	g.queue("first", nil)
	g.queue("second", nil)
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.typed("q1")
	g.state("working") // taken
	g.waitState("q1", "")
	if watched, _ := g.srv.queue.Watching(g.w); watched {
		t.Fatal("a Claude Code pane's output is watched")
	}
}

// TestQueueHelper is not a test: run inside a pane (TUIOS_QUEUE_HELPER
// set) it is a program in that pane calling queue-prompt, and prints what
// the daemon answered.
func TestQueueHelper(t *testing.T) {
	t.Parallel()
	mode := os.Getenv("TUIOS_QUEUE_HELPER")
	if mode == "" {
		t.Skip("a helper process, not a test")
	}
	r := dialRPC(t, os.Getenv("TUIOS_QUEUE_SOCK"))
	p := map[string]any{"session": "q", "window": "worker", "text": "from a pane"}
	if mode == "from-other" {
		p["from"] = os.Getenv("TUIOS_QUEUE_OTHER")
	}
	res, perr := r.call("queue-prompt", p)
	if perr == nil {
		os.Stdout.WriteString("helper_result=ok id=" + str(res["id"]) + "\n")
	} else {
		os.Stdout.WriteString("helper_result=" + perr.Code + "\n")
	}
}

// A caller inside a pane queues as that pane (by = its window id), may not
// name another window as from, and its entries for other panes go when it
// closes.
func TestQueueFromAPane(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	exe, _ := os.Executable()
	sock := g.srv.opt.Socket
	run := func(name, mode, other string) (string, string) {
		t.Helper()
		id := str(g.r.must("new-window", map[string]any{"session": "q", "name": name, "no_focus": true,
			"argv": []string{"sh", "-c", `TUIOS_QUEUE_HELPER="$3" TUIOS_QUEUE_SOCK="$1" TUIOS_QUEUE_OTHER="$4" "$2" -test.run='^TestQueueHelper$'; sleep 60`,
				"sh", sock, exe, mode, other}})["window_id"])
		g.r.must("wait-for", map[string]any{"session": "q", "window": id, "condition": "window-output", "pattern": "helper_result=", "timeout": 15000})
		return id, str(g.r.must("capture-pane", map[string]any{"window": id})["content"])
	}
	lead, out := run("lead", "plain", "")
	if !strings.Contains(out, "helper_result=ok id=q1") {
		t.Fatalf("a pane queueing:\n%s", out)
	}
	e := g.entries()
	if len(e) != 1 || e[0].By != lead || e[0].From != "" {
		t.Fatalf("by %+v, want the pane %s", e, lead)
	}
	if _, out := run("liar", "from-other", lead); !strings.Contains(out, "helper_result="+proto.CodeForbidden) {
		t.Fatalf("a pane naming another window as from:\n%s", out)
	}
	if _, out := run("liar2", "from-other", "worker"); !strings.Contains(out, "helper_result="+proto.CodeForbidden) {
		t.Fatalf("a pane naming another window by name as from:\n%s", out)
	}
	g.queue("from a script", nil)
	if n := len(g.entries()); n != 2 {
		t.Fatalf("%d entries", n)
	}
	// The pane that queued closes: its entry goes, the script's stays.
	g.r.must("close-window", map[string]any{"window": lead})
	eventually(t, "the closed pane's entry is dropped", func() bool {
		e := g.entries()
		return len(e) == 1 && e[0].By == "shell"
	})
}
