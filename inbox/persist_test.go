package inbox_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

// I8: finished and errored items survive with their ids and snoozes, seq
// continues upward, the rest is gone; panes that did not come back lose
// their items; a past snooze wakes on start; a restored errored item
// waits for a real state.
func TestRestartKeepsFinishedAndErrored(t *testing.T) {
	r := newRig(t)
	r.finish("f", "all green")
	r.errored("e", "API error 529")
	r.approval("a", "approve Bash: make")
	r.question("q", "which?")
	r.mail("api", 9, 1, 9, "hi")
	r.q.Ask(inbox.Ask{Pane: pane("k"), RequestID: "r", Question: "Ship it?", Options: []string{"yes"}})
	r.q.Resume(pane("z"), "claude --resume 1")
	r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 1})
	r.finish("s", "snoozed turn")
	r.finish("p", "past snooze")
	r.finish("gone", "pane did not come back")
	s := r.find(inbox.KindFinished, "s")
	r.q.Snooze(s.ID, inbox.Snooze{UntilChange: true})
	p := r.find(inbox.KindFinished, "p")
	r.q.Snooze(p.ID, inbox.Snooze{For: time.Minute})
	f, e := r.find(inbox.KindFinished, "f"), r.find(inbox.KindErrored, "e")
	data, err := r.q.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	saved := r.q.Seq()

	c := fakeclock.New(t0.Add(time.Hour))
	q := inbox.New(inbox.Options{Clock: c, BootID: "boot-2"})
	if err := q.Unmarshal(data, func(session, window string) bool { return window != "gone" }); err != nil {
		t.Fatal(err)
	}
	l := q.List(inbox.ListOptions{IncludeSnoozed: true})
	if got := rows(l.Items); got != "errored#2 e: API error 529 | finished#1 f: all green | finished#10 p: past snooze | finished#9 s: snoozed turn" {
		t.Fatalf("after restart: %s", got)
	}
	if l.BootID != "boot-2" || l.Seq <= saved {
		t.Fatalf("boot %q seq %d (saved %d)", l.BootID, l.Seq, saved)
	}
	if it, _ := q.Get(s.ID); it.SnoozedUntil != inbox.UntilChange {
		t.Fatal("the snooze was lost")
	}
	if it, _ := q.Get(f.ID); it.Since != f.Since || it.Summary != f.Summary {
		t.Fatalf("%+v", it)
	}
	// The restored panes come back with no agent state: that ends nothing.
	none := agentstate.Snapshot{Pane: "e"}
	if evs := q.Update(pane("e"), none); len(evs) != 0 {
		t.Fatalf("a pane back with no state: %s", ops(evs))
	}
	if evs := q.Update(pane("f"), agentstate.Snapshot{Pane: "f"}); len(evs) != 0 {
		t.Fatalf("%s", ops(evs))
	}
	// A real state does; seq goes on upward and ids are new.
	evs := q.Update(pane("e"), agentstate.Snapshot{Pane: "e", State: agentstate.Working})
	wantOps(t, evs, "close resolved errored#"+e.ID)
	evs = q.Update(pane("n"), agentstate.Snapshot{Pane: "n", State: agentstate.Errored, Message: "new"})
	if len(evs) != 1 || evs[0].Item.Seq <= l.Seq || evs[0].Item.ID != "4108" {
		t.Fatalf("%+v", evs)
	}
	// A turn finished after the restart wakes the snoozed finished item
	// (the new engine counts turns from 1 again).
	evs = q.Update(pane("s"), agentstate.Snapshot{Pane: "s", State: agentstate.Done, CompletionSeq: 1, FinishedUnread: true, Message: "new turn"})
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.ID != s.ID || evs[0].Item.CompletionSeq != 1 {
		t.Fatalf("%+v", evs)
	}
	if q.Seen("f"); true {
		if _, ok := q.Get(f.ID); ok {
			t.Fatal("a restored finished item is not closed by a focus")
		}
	}
}

func TestMarshalIsDeterministicAndRoundTrips(t *testing.T) {
	r := newRig(t)
	for _, p := range []string{"a", "b", "c"} {
		r.finish(p, "done "+p)
		r.errored(p+"x", "boom "+p)
	}
	r.q.MarkUnread("a", false)
	one, _ := r.q.Marshal()
	two, _ := r.q.Marshal()
	if !bytes.Equal(one, two) {
		t.Fatal("two encodings differ")
	}
	q := inbox.New(inbox.Options{Clock: r.clock, BootID: "b"})
	if err := q.Unmarshal(one, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := rows(q.List(inbox.ListOptions{}).Items), rows(r.list()); got != want {
		t.Fatalf("%s\n!=\n%s", got, want)
	}
	if err := q.Unmarshal(one, nil); err == nil {
		t.Fatal("a second load into a used queue")
	} else {
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotFresh)
	}
}

func TestUnmarshalRefusesCorruptInput(t *testing.T) {
	good := func(mut func(m map[string]any)) []byte {
		m := map[string]any{"version": 1, "seq": 10, "next_id": 5, "items": []any{
			map[string]any{"id": "3", "kind": "finished", "session": "api", "window": "w1", "summary": "ok", "since": 1, "seq": 4},
		}}
		if mut != nil {
			mut(m)
		}
		b, _ := json.Marshal(m)
		return b
	}
	item := func(m map[string]any) map[string]any { return m["items"].([]any)[0].(map[string]any) }
	tests := []struct {
		name string
		data []byte
		why  inbox.Why
	}{
		{"good", good(nil), ""},
		{"empty", nil, inbox.WhyCorrupt},
		{"not json", []byte("{"), inbox.WhyCorrupt},
		{"no version", []byte(`{"seq":1}`), inbox.WhyCorrupt},
		{"version 0", good(func(m map[string]any) { m["version"] = 0 }), inbox.WhyCorrupt},
		{"newer version", good(func(m map[string]any) { m["version"] = 2 }), inbox.WhyNewerVersion},
		{"unknown field", good(func(m map[string]any) { m["extra"] = true }), inbox.WhyCorrupt},
		{"trailing data", append(good(nil), []byte(` {}`)...), inbox.WhyCorrupt},
		{"an approval", good(func(m map[string]any) { item(m)["kind"] = "approval" }), inbox.WhyCorrupt},
		{"id not issued", good(func(m map[string]any) { item(m)["id"] = "6" }), inbox.WhyCorrupt},
		{"id not a number", good(func(m map[string]any) { item(m)["id"] = "03" }), inbox.WhyCorrupt},
		{"seq ahead", good(func(m map[string]any) { item(m)["seq"] = 11 }), inbox.WhyCorrupt},
		{"no since", good(func(m map[string]any) { item(m)["since"] = 0 }), inbox.WhyCorrupt},
		{"bad snooze", good(func(m map[string]any) { item(m)["snoozed_until"] = -2 }), inbox.WhyCorrupt},
		{"no window", good(func(m map[string]any) { item(m)["window"] = "" }), inbox.WhyCorrupt},
		{"control in summary", good(func(m map[string]any) { item(m)["summary"] = "a\x1b[2Jb" }), inbox.WhyCorrupt},
		{"secret in summary", good(func(m map[string]any) { item(m)["summary"] = "token=abc" }), inbox.WhyCorrupt},
		{"control in name", good(func(m map[string]any) { item(m)["name"] = "a\nb" }), inbox.WhyCorrupt},
		{"two for one key", good(func(m map[string]any) {
			m["items"] = append(m["items"].([]any), map[string]any{"id": "4", "kind": "finished", "session": "api", "window": "w1", "summary": "x", "since": 1, "seq": 5})
		}), inbox.WhyCorrupt},
		{"ids out of order", good(func(m map[string]any) {
			m["items"] = append(m["items"].([]any), map[string]any{"id": "2", "kind": "errored", "session": "api", "window": "w1", "summary": "x", "since": 1, "seq": 5})
		}), inbox.WhyCorrupt},
		{"too big", append(good(nil), bytes.Repeat([]byte(" "), inbox.MaxSaveBytes)...), inbox.WhyCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := inbox.New(inbox.Options{Clock: fakeclock.New(t0), BootID: "b"})
			err := q.Unmarshal(tt.data, nil)
			if tt.why == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRefusal(t, err, inbox.CodeCorrupt, tt.why)
			if e := err.(*inbox.Error); e.Hint() == "" || !strings.HasPrefix(e.Error(), "inbox: saved queue: ") {
				t.Fatalf("error %q hint %q", e.Error(), e.Hint())
			}
			if q.Seq() != 0 || len(q.List(inbox.ListOptions{IncludeSnoozed: true}).Items) != 0 {
				t.Fatal("a refused load loaded something")
			}
		})
	}
}

// FuzzUnmarshal: any input is refused or loaded; what loads encodes to
// bytes that load to the same encoding, with one item per key.
func FuzzUnmarshal(f *testing.F) {
	r := newRig(&testing.T{})
	r.finish("a", "done")
	r.errored("b", "boom")
	r.finish("c", "later")
	r.q.Snooze(r.find(inbox.KindFinished, "c").ID, inbox.Snooze{For: time.Hour})
	seed, _ := r.q.Marshal()
	f.Add(seed)
	f.Add([]byte(`{"version":1,"seq":0,"next_id":0,"items":[]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"seq":3,"next_id":2,"items":[{"id":"1","kind":"errored","session":"s","window":"w","summary":"","since":5,"seq":3,"snoozed_until":-1}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		q := inbox.New(inbox.Options{Clock: fakeclock.New(t0), BootID: "b"})
		if err := q.Unmarshal(data, nil); err != nil {
			if _, ok := err.(*inbox.Error); !ok {
				t.Fatalf("not an *inbox.Error: %v", err)
			}
			return
		}
		keys := map[inbox.Key]bool{}
		for _, it := range q.List(inbox.ListOptions{IncludeSnoozed: true}).Items {
			if keys[it.Key()] || (it.Kind != inbox.KindFinished && it.Kind != inbox.KindErrored) {
				t.Fatalf("loaded %+v", it)
			}
			keys[it.Key()] = true
		}
		once, err := q.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		q2 := inbox.New(inbox.Options{Clock: fakeclock.New(t0), BootID: "b"})
		if err := q2.Unmarshal(once, nil); err != nil {
			t.Fatalf("its own encoding refused: %v\n%s", err, once)
		}
		twice, _ := q2.Marshal()
		var a, b map[string]any
		json.Unmarshal(once, &a)
		json.Unmarshal(twice, &b)
		delete(a, "next_id") // ids jump IDGap per load
		delete(b, "next_id")
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("encodings differ:\n%s\n%s", once, twice)
		}
	})
}
