package daemon

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/daemon/core"
)

// journal records what the features of a test did, in order.
type journal struct{ lines []string }

// stepFeature is a feature that writes its Init and Shutdown to a
// journal; failInit makes its Init fail.
type stepFeature struct {
	name     string
	j        *journal
	failInit bool
}

func (f *stepFeature) Name() string { return f.name }

func (f *stepFeature) Init(core.Host) error {
	f.j.lines = append(f.j.lines, "init "+f.name)
	if f.failInit {
		return errors.New("no room")
	}
	return nil
}

func (f *stepFeature) Shutdown(context.Context) error {
	f.j.lines = append(f.j.lines, "shutdown "+f.name)
	return nil
}

// Features init in the list's order and stop in the reverse one; a
// feature whose Init fails stops New's inits, and only the features
// inited before it are shut down (in reverse), not it nor the later ones.
func TestFeaturesInitInOrderAndStopInReverse(t *testing.T) {
	t.Parallel()
	var j journal
	fs := []core.Feature{&stepFeature{name: "a", j: &j}, &stepFeature{name: "b", j: &j}, &stepFeature{name: "c", j: &j}}
	h := host{&Server{opt: Options{Logf: func(string, ...any) {}}}}
	if err := initFeatures(h, fs); err != nil {
		t.Fatal(err)
	}
	shutdownFeatures(h.Log(), fs)
	if want := []string{"init a", "init b", "init c", "shutdown c", "shutdown b", "shutdown a"}; !slices.Equal(j.lines, want) {
		t.Fatalf("journal %q, want %q", j.lines, want)
	}

	j.lines = nil
	fs[1].(*stepFeature).failInit = true
	err := initFeatures(h, fs)
	if err == nil || err.Error() != "feature b: no room" {
		t.Fatalf("init error: %v", err)
	}
	if want := []string{"init a", "init b", "shutdown a"}; !slices.Equal(j.lines, want) {
		t.Fatalf("journal %q, want %q", j.lines, want)
	}
}

// The daemon's features, in their order; what they registered is fixed
// once New returns: a feature that registers later is a bug, caught at
// once. Close shuts them down: the herdr socket is gone with it.
func TestDaemonFeatures(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	var names []string
	for _, f := range srv.features {
		names = append(names, f.Name())
	}
	if want := []string{"inbox", "mail", "herdr", "agent-log", "transcripts", "resume", "worktrees", "reply-queue", "review", "ask-human", "held-approvals", "respond", "links", "notify", "transfers", "wait-for", "agents"}; !slices.Equal(names, want) {
		t.Fatalf("features %q, want %q", names, want)
	}
	for what, register := range map[string]func(core.Host){
		"AddVerb":        func(h core.Host) { h.AddVerb(core.Verb{Name: "late", Class: core.Reads}) },
		"OnPaneStart":    func(h core.Host) { h.OnPaneStart(func(core.PaneStart, map[string]string) {}) },
		"OnPaneEnviron":  func(h core.Host) { h.OnPaneEnviron("X_", func(map[string]string) bool { return false }) },
		"OnWindowClosed": func(h core.Host) { h.OnWindowClosed(func(core.Event) {}) },
		"OnListen":       func(h core.Host) { h.OnListen(func() {}) },
		"OnRestored":     func(h core.Host) { h.OnRestored(func([]core.Restored) {}) },
		"OnPersonTyped":  func(h core.Host) { h.OnPersonTyped(func(string) {}) },
		"OnProgramExit":  func(h core.Host) { h.OnProgramExit(func(core.ProgramExit) {}) },
	} {
		func() {
			defer func() {
				if p := recover(); p != errSealed {
					t.Errorf("%s after Init: recovered %v, want %v", what, p, errSealed)
				}
			}()
			register(host{srv})
		}()
	}
	if srv.verbs.Lookup("late") != nil {
		t.Fatal("a verb added after Init is served")
	}
	path := srv.herdr.Path()
	if !srv.herdr.Live() {
		t.Fatal("the herdr socket is not served")
	}
	srv.Close()
	if srv.herdr.Live() {
		t.Fatal("the herdr socket is served after Close")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the herdr socket file after Close: %v", err)
	}
}

// A pane's Inbox items close with it before close-window answers (the
// Inbox hears the close through the hub's hook, not later from a queue),
// and a subscriber sees window-closed before the items' close.
func TestWindowCloseReachesTheInboxBeforeTheAnswer(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := personRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "errored", "", "boom")
	waitList(t, r, nil, "errored item", func(l attList) bool { return l.Counts["errored"] == 1 })
	sub := dialRPC(t, sock)
	sub.must("subscribe", map[string]any{"types": []string{"attention", "window-closed"}})
	r.must("close-window", map[string]any{"window": w})
	if l := listAtt(t, r, nil); l.Total != 0 {
		t.Fatalf("close-window answered with the pane's items open: %+v", l.Items)
	}
	for {
		ev := sub.nextLine()
		if ev["type"] == "window-closed" && ev["window"] == w {
			break
		}
		if ev["type"] == "attention" && ev["op"] == "close" {
			t.Fatalf("the item closed before the window-closed event: %v", ev)
		}
	}
	if ev := sub.nextAttention(); ev.Op != "close" || ev.Item.Closed != "window_closed" {
		t.Fatalf("the item's close: %+v", ev)
	}
}
