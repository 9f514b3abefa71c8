package rpc

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/daemon/core"
)

// The hub's window-closed hooks run after the event went out to the
// subscribers, in the order they were added, before Publish returns;
// and still once the hub is closed (a window closing as the daemon
// stops). Other types run no hook.
func TestHubHooksRunAfterTheFanOut(t *testing.T) {
	t.Parallel()
	h := NewHub()
	sub := h.Subscribe(core.Filter{}, 4)
	var ran []string
	h.Hook("window-closed", func(ev core.Event) {
		if ev.Window == "w1" && len(sub.C()) != 1 {
			t.Errorf("hook 1 ran before the subscriber had the event (%d queued)", len(sub.C()))
		}
		ran = append(ran, "1:"+ev.Window)
	})
	h.Hook("window-closed", func(ev core.Event) { ran = append(ran, "2:"+ev.Window) })
	h.Publish(core.Event{Type: "window-created", Window: "w0"})
	<-sub.C()
	if len(ran) != 0 {
		t.Fatalf("hooks ran for window-created: %q", ran)
	}
	sent := h.Publish(core.Event{Type: "window-closed", Window: "w1"})
	if got := <-sub.C(); got.Seq != sent.Seq || got.Window != "w1" {
		t.Fatalf("subscriber got %+v, publish sent %+v", got, sent)
	}
	h.Close()
	if _, open := <-sub.C(); open {
		t.Fatal("the subscriber's queue is open after the hub closed")
	}
	h.Publish(core.Event{Type: "window-closed", Window: "w2"})
	if want := []string{"1:w1", "2:w1", "1:w2", "2:w2"}; !slices.Equal(ran, want) {
		t.Fatalf("hooks ran %q, want %q", ran, want)
	}
}

// A subscriber hears only what its filter lets through: its session (and
// events of no session), its window, its types; output and transcript
// only when named.
func TestSubscriberFilters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		f    core.Filter
		ev   core.Event
		want bool
	}{
		{"default hears a window event", core.Filter{}, core.Event{Type: "window-created", Session: "a", Window: "w"}, true},
		{"default skips output", core.Filter{}, core.Event{Type: "output", Window: "w"}, false},
		{"default skips transcript", core.Filter{}, core.Event{Type: core.EvTranscript, Window: "w"}, false},
		{"named output", core.Filter{Types: map[string]bool{"output": true}}, core.Event{Type: "output"}, true},
		{"named transcript", core.Filter{Types: map[string]bool{core.EvTranscript: true}}, core.Event{Type: core.EvTranscript}, true},
		{"types keep only theirs", core.Filter{Types: map[string]bool{"attention": true}}, core.Event{Type: "window-closed"}, false},
		{"empty types hear nothing", core.Filter{Types: map[string]bool{}}, core.Event{Type: "window-closed"}, false},
		{"other session", core.Filter{Session: "a"}, core.Event{Type: "window-closed", Session: "b"}, false},
		{"its session", core.Filter{Session: "a"}, core.Event{Type: "window-closed", Session: "a"}, true},
		{"no session in the event", core.Filter{Session: "a"}, core.Event{Type: "config-changed"}, true},
		{"other window", core.Filter{Window: "w1"}, core.Event{Type: "window-closed", Window: "w2"}, false},
		{"no window in the event", core.Filter{Window: "w1"}, core.Event{Type: "config-changed"}, false},
	}
	h := NewHub()
	for _, c := range cases {
		sub := h.NewSubscriber(c.f, 1)
		if got := sub.Wants(c.ev); got != c.want {
			t.Errorf("%s: Wants = %v, want %v", c.name, got, c.want)
		}
		// Wants is what the fan-out reads.
		h.Add(sub, nil)
		h.Publish(c.ev)
		if got := len(sub.C()) == 1; got != c.want {
			t.Errorf("%s: queued %v, want %v", c.name, got, c.want)
		}
		sub.Close()
	}
}

// A full queue drops events and counts them; TakeLost reads the count
// once; the publisher never waits.
func TestSlowSubscriberLosesEvents(t *testing.T) {
	t.Parallel()
	h := NewHub()
	slow := h.Subscribe(core.Filter{}, 2)
	fast := h.Subscribe(core.Filter{}, 16)
	for i := range 5 {
		h.Publish(core.Event{Type: "window-created", Window: string(rune('a' + i))})
	}
	if n := len(fast.C()); n != 5 {
		t.Fatalf("the reading subscriber has %d events, want 5", n)
	}
	if got := slow.Lost(); got != 3 {
		t.Fatalf("Lost = %d, want 3", got)
	}
	if got := slow.TakeLost(); got != 3 {
		t.Fatalf("TakeLost = %d, want 3", got)
	}
	if got := slow.Lost(); got != 0 {
		t.Fatalf("Lost after TakeLost = %d, want 0", got)
	}
	first := <-slow.C()
	if first.Window != "a" || first.Seq != 1 {
		t.Fatalf("the slow subscriber's first event is %+v, want the first published", first)
	}
}

// Output events are made only while someone asked for them, and the
// count follows subscribers that go; Listening names a type asked for.
func TestWantsOutputOnlyWhileAsked(t *testing.T) {
	t.Parallel()
	h := NewHub()
	if !h.Wants("window-created") {
		t.Fatal("Wants says no to a plain event")
	}
	if h.Wants("output") {
		t.Fatal("Wants output with no subscriber")
	}
	all := h.Subscribe(core.Filter{}, 1)
	if h.Wants("output") || h.Listening("output") {
		t.Fatal("a default subscriber counts as asking for output")
	}
	out := h.Subscribe(core.Filter{Types: map[string]bool{"output": true}}, 1)
	if !h.Wants("output") || !h.Listening("output") {
		t.Fatal("Wants or Listening says no to output while a subscriber names it")
	}
	out.Close()
	out.Close() // a second close does nothing
	if h.Wants("output") || h.Listening("output") {
		t.Fatal("output still wanted after its subscriber closed")
	}
	all.Close()
}

// Events queued ahead by Add come before anything published after, and
// Add says how many fit and the seq they follow.
func TestAddQueuesAhead(t *testing.T) {
	t.Parallel()
	h := NewHub()
	h.Publish(core.Event{Type: "window-created"})
	sub := h.NewSubscriber(core.Filter{}, 2)
	pre := []core.Event{{Type: "attention", Seq: 7}, {Type: "attention", Seq: 8}, {Type: "attention", Seq: 9}}
	seq, n := h.Add(sub, pre)
	if seq != 1 || n != 2 {
		t.Fatalf("Add = (%d, %d), want (1, 2)", seq, n)
	}
	h.Publish(core.Event{Type: "window-closed"}) // no room: lost
	if a, b := <-sub.C(), <-sub.C(); a.Seq != 7 || b.Seq != 8 {
		t.Fatalf("queued ahead %d, %d; want 7, 8", a.Seq, b.Seq)
	}
	if sub.Lost() != 1 {
		t.Fatalf("Lost = %d, want 1", sub.Lost())
	}
}

// A subscriber of one session hears that session's events, with their
// seq and time stamped by the hub.
func ExampleHub() {
	h := NewHub()
	sub := h.Subscribe(core.Filter{Session: "api"}, 8)
	defer sub.Close()
	h.Publish(core.Event{Type: "session-created", Session: "web"})
	h.Publish(core.Event{Type: "session-created", Session: "api"})
	ev := <-sub.C()
	fmt.Println(ev.Seq, ev.Type, ev.Session, ev.Time != "")
	// Output: 2 session-created api true
}
