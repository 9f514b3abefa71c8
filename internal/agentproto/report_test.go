package agentproto

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/internal/proto"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }

// Every change of state reaches the daemon, in order, however quickly
// the changes come: an approval answered, a working of a moment, the
// turn's end, queued before the reporter sends any of them, are three
// agent-state events on a real daemon's stream, not only the last.
func TestEveryChangeOfStateIsReportedInOrder(t *testing.T) {
	bin := e2e.Binary(t)
	w := e2e.NewWorld(t, bin)
	tuios := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = w.Vars
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tuios %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tuios("new", "--detach", "work")
	t.Cleanup(func() { tuios("kill-server") })
	var list struct {
		Windows []struct {
			ID string `json:"window_id"`
		} `json:"windows"`
	}
	if err := json.Unmarshal([]byte(tuios("list-windows", "-s", "work", "--json")), &list); err != nil || len(list.Windows) != 1 {
		t.Fatalf("list-windows: %v %+v", err, list)
	}
	pane := list.Windows[0].ID
	sock := filepath.Join(w.Dir, "run", "tuios", "tuios.sock")
	dial := func() (*client.Client, error) { return client.Dial(client.Options{Socket: sock}) }

	events, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer events.Close()
	if err := events.Call("subscribe", proto.SubscribeParams{Session: "work"}, nil); err != nil {
		t.Fatal(err)
	}

	r := newReporter("work", pane, "acp", dial, nil)
	r.set(report{state: "needs_input", message: "allow shell?"})
	r.set(report{state: "working", message: "running"})
	last := r.set(report{state: "done", message: "ran it"})
	go r.run()
	defer r.close()
	if !r.waitApplied(last, 10*time.Second) {
		t.Fatal("the reports never reached the daemon")
	}

	var seen []string
	events.SetDeadline(time.Now().Add(10 * time.Second))
	for len(seen) == 0 || seen[len(seen)-1] != "done" {
		var ev struct {
			Type   string `json:"type"`
			Window string `json:"window"`
			State  string `json:"state"`
		}
		if err := events.Next(&ev); err != nil {
			t.Fatalf("the stream ended after %v: %v", seen, err)
		}
		if ev.Type == "agent-state" && ev.Window == pane {
			seen = append(seen, ev.State)
		}
	}
	if got := strings.Join(seen, " "); got != "needs_input working done" {
		t.Fatalf("the daemon heard %q, want every change in order", got)
	}
}

// Past maxPending reports waiting, the newest replaces the last: a flood
// is a bounded backlog. A report of the state already waiting last
// replaces it (a message that moves on).
func TestPendingReportsAreBounded(t *testing.T) {
	r := newReporter("work", "pane", "acp", nil, nil)
	states := []string{"working", "needs_input"}
	for i := range 10 * maxPending {
		r.set(report{state: states[i%2]})
	}
	if n := len(r.pending); n != maxPending {
		t.Fatalf("%d reports wait, want at most %d", n, maxPending)
	}
	r.set(report{state: r.pending[maxPending-1].rep.state, message: "newer"})
	if n, p := len(r.pending), r.pending[maxPending-1]; n != maxPending || p.rep.message != "newer" || p.seq != r.seq {
		t.Fatalf("the same state did not replace the last: %d %+v", n, p)
	}
}
