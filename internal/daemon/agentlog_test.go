package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/proto"
)

type activityList struct {
	Name      string       `json:"name"`
	LastSeq   uint64       `json:"last_seq"`
	Untrusted bool         `json:"untrusted"`
	Entries   []logEntry   `json:"entries"`
	Recap     *proto.Recap `json:"recap"`
}

func readLog(t *testing.T, r *rpc, p map[string]any) activityList {
	t.Helper()
	var l activityList
	remarshalT(t, r.must("agent-activity", p), &l)
	return l
}

func activity(t *testing.T, r *rpc, w, event, tool, text string) {
	t.Helper()
	res := r.must("report-agent-activity", map[string]any{"window": w, "event": event, "tool": tool, "text": text})
	if res["recorded"] != true {
		t.Fatalf("%s %s not recorded: %v", event, tool, res)
	}
}

// L1: 300 logged entries; the newest 64 by default, the newest 256 (the
// ring dropped the oldest), and 257 refused.
func TestAgentLogKeepsTheNewest256(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	w := catPane(t, r, "worker")
	report(t, r, w, "working", "", "")
	for i := 1; i <= 300; i++ {
		activity(t, r, w, "tool", fmt.Sprintf("Bash: echo %d", i), "")
		clk.Advance(time.Second)
	}
	l := readLog(t, r, map[string]any{"window": w})
	if len(l.Entries) != 64 || l.LastSeq != 300 || l.Entries[0].Seq != 237 || l.Entries[63].Target != "echo 300" || !l.Untrusted {
		t.Fatalf("default: %d entries, last_seq %d, first %+v", len(l.Entries), l.LastSeq, l.Entries[0])
	}
	l = readLog(t, r, map[string]any{"window": w, "limit": 256})
	if len(l.Entries) != 256 || l.Entries[0].Seq != 45 || l.Entries[0].Tool != "Bash" {
		t.Fatalf("limit 256: %d entries, first %+v", len(l.Entries), l.Entries[0])
	}
	if _, err := r.call("agent-activity", map[string]any{"window": w, "limit": 257}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("limit 257: %v", err)
	}
	// since and since_seq narrow it.
	l = readLog(t, r, map[string]any{"window": w, "since_seq": 298})
	if len(l.Entries) != 2 || l.Entries[0].Seq != 299 {
		t.Fatalf("since_seq: %+v", l.Entries)
	}
	l = readLog(t, r, map[string]any{"window": w, "since": clk.Now().Add(-3 * time.Second).UnixNano()})
	if len(l.Entries) != 3 {
		t.Fatalf("since: %d entries", len(l.Entries))
	}
}

// L2: away 42 minutes while worker finished 3 turns, touched 6 files and
// ran 11 commands including a passing go test: the one-liner.
func TestAgentLogRecapWhileYouWereAway(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 14, 2, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	r.must("set-window", map[string]any{"window": w, "name": "worker"})
	left := clk.Now()
	files := [][]string{{"api/retry.go", "api/retry_test.go"}, {"api/backoff.go", "api/retry.go"}, {"api/client.go", "README.md", "api/doc.go"}}
	commands := [][]string{{"go build ./...", "go vet ./...", "ls api"}, {"git status", "go build ./...", "gofmt -l ."}, {"git diff", "go vet ./...", "go build ./...", "cat go.mod", "go test ./..."}}
	for turn := range 3 {
		report(t, r, w, "working", "", "")
		activity(t, r, w, "prompt", "", fmt.Sprintf("turn %d\nmore lines", turn+1))
		for _, f := range files[turn] {
			activity(t, r, w, "tool", "Edit: "+f, "")
			activity(t, r, w, "tool_done", "Edit: "+f, "")
			clk.Advance(time.Minute)
		}
		for _, c := range commands[turn] {
			activity(t, r, w, "tool", "Bash: "+c, "")
			activity(t, r, w, "tool_done", "Bash: "+c, "")
			clk.Advance(time.Minute)
		}
		activity(t, r, w, "turn_end", "", fmt.Sprintf("Finished turn %d. password=hunter2", turn+1))
		report(t, r, w, "done", "", "")
		clk.Advance(5 * time.Minute)
	}
	clk.Set(left.Add(42 * time.Minute))
	var l activityList
	eventually(t, "the recap", func() bool {
		l = readLog(t, r, map[string]any{"window": w, "since": left.UnixNano(), "recap": true})
		return l.Recap != nil && l.Recap.State == "done"
	})
	want := "worker while you were away (42m): 3 turns, 6 files, 11 commands, go test passed, at prompt"
	if l.Recap.Line != want {
		t.Fatalf("recap line\n got %q\nwant %q\n%+v", l.Recap.Line, want, l.Recap)
	}
	if l.Recap.Tests == nil || l.Recap.Tests.Cmdline != "go test ./..." || strings.Contains(l.Recap.LastSaid, "hunter2") ||
		!strings.HasPrefix(l.Recap.LastSaid, "Finished turn 3.") || l.Recap.Files[0] != "api/retry.go" {
		t.Fatalf("recap: %+v", l.Recap)
	}
	// The hooks said turn_end: the done reports add no second turn.
	n := 0
	for _, e := range l.Entries {
		if e.Kind == "turn_end" {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d turn_end entries", n)
	}
}

// A pane that never reported activity has no ring; once it has one, its
// shell's OSC 133 commands are logged with their exit codes, and a state
// change to working→done from an agent without turn_end hooks is a turn.
func TestAgentLogShellCommandsAndTurnsFromStates(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	w := str(r.must("new-session", map[string]any{"name": "sh"})["window_id"])
	if l := readLog(t, r, map[string]any{"window": w}); len(l.Entries) != 0 || l.LastSeq != 0 {
		t.Fatalf("a pane without reports: %+v", l)
	}
	// The patterns waited for are printed, never typed: the echo of the
	// command line must not count as its output.
	shellSays(t, r, w, `printf '\033]133;C;cmdline=make early\007\033]133;D;0\007'; echo before-$((1+1))`, "before-2")
	activity(t, r, w, "tool", "Read: go.mod", "")
	shellSays(t, r, w, `printf '\033]133;C;cmdline_url=make%%20build\007\033]133;D;2\007'; echo marked-$((1+1))`, "marked-2")
	report(t, r, w, "working", "", "")
	report(t, r, w, "done", "", "all green")
	var l activityList
	eventually(t, "the command and the turn", func() bool {
		l = readLog(t, r, map[string]any{"window": w})
		return len(l.Entries) == 3
	})
	c, turn := l.Entries[1], l.Entries[2]
	if c.Kind != "command" || c.Target != "make build" || c.Exit == nil || *c.Exit != 2 || turn.Kind != "turn_end" || turn.Text != "all green" {
		t.Fatalf("entries: %+v", l.Entries)
	}
	r.must("close-window", map[string]any{"window": w})
	// The log hears the close from the event hub.
	eventually(t, "the ring goes with its window", func() bool { return srv.alog.Len() == 0 })
}

// A hook's report carries its agent-log entry (set-agent-state activity):
// one call for both; an entry from another conversation than the pane's
// is not recorded; a bad entry is refused before anything is applied.
func TestAReportCarriesItsLogEntry(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	res := r.must("set-agent-state", map[string]any{"window": w, "state": "working", "harness": "claude-code", "agent_session_id": "s1",
		"activity": map[string]any{"event": "tool", "tool": "Bash: go test ./..."}})
	if res["applied"] != true || res["activity_recorded"] != true {
		t.Fatalf("report with activity: %v", res)
	}
	res = r.must("set-agent-state", map[string]any{"window": w, "state": "working", "harness": "claude-code", "agent_session_id": "s2",
		"activity": map[string]any{"event": "tool", "tool": "Bash: rm -rf /"}})
	if res["activity_recorded"] == true {
		t.Fatalf("another conversation wrote the pane's log: %v", res)
	}
	if _, err := r.call("set-agent-state", map[string]any{"window": w, "state": "done", "activity": map[string]any{"event": "explode"}}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("a bad event: %v", err)
	}
	if st := r.must("get-agent-state", map[string]any{"window": w}); st["state"] != "working" {
		t.Fatalf("a refused report changed the state: %v", st)
	}
	l := readLog(t, r, map[string]any{"window": w})
	if len(l.Entries) != 1 || l.Entries[0].Tool != "Bash" || l.Entries[0].Target != "go test ./..." {
		t.Fatalf("log: %+v", l.Entries)
	}
}
