package agentstate_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

func TestMetaIsStatedKeptAndExpires(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	v0 := r.a.Get("w").Version
	res, err := r.a.SetMeta("w", as.MetaUpdate{Set: map[string]string{"model": "Opus", "cost": "$0.12\n" + strings.Repeat("x", 100)}, TTL: time.Minute})
	if err != nil || !res.Changed || !res.Truncated {
		t.Fatalf("set: %+v %v", res, err)
	}
	g := r.a.Get("w")
	if g.Meta["model"] != "Opus" || len(g.Meta["cost"]) != 80 || strings.ContainsAny(g.Meta["cost"], "\n") || g.Version == v0 {
		t.Fatalf("meta %q version %d", g.Meta, g.Version)
	}
	if g.State != as.Working {
		t.Fatal("meta changed the state")
	}
	// The same values again, with most of the TTL left, write nothing.
	v1 := g.Version
	r.advance(10 * time.Second)
	if res, _ := r.a.SetMeta("w", as.MetaUpdate{Set: map[string]string{"model": "Opus"}, TTL: time.Minute}); res.Changed || r.a.Get("w").Version != v1 {
		t.Fatal("a repeat with most of its TTL left was a write")
	}
	r.advance(51 * time.Second)
	if g := r.a.Get("w"); g.Meta["model"] != "" {
		t.Fatalf("expired keys are shown: %q", g.Meta)
	}
}

func TestMetaRefusesBadKeysWhole(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	for _, k := range []string{"now", "subagents", "prompt", "Model", "9x", "", strings.Repeat("a", 25), "a b"} {
		_, err := r.a.SetMeta("w", as.MetaUpdate{Set: map[string]string{"ok": "1", k: "v"}})
		var me *as.MetaError
		if !errors.As(err, &me) || me.Code() != "invalid_params" {
			t.Fatalf("key %q: %v", k, err)
		}
	}
	if len(r.a.Get("w").Meta) != 0 {
		t.Fatal("a refused update wrote part of itself")
	}
	set := map[string]string{}
	for i := 0; i < 16; i++ {
		set[string(rune('a'+i))] = "v"
	}
	if _, err := r.a.SetMeta("w", as.MetaUpdate{Set: set}); err != nil {
		t.Fatal(err)
	}
	set2 := map[string]string{}
	for i := 0; i < 16; i++ {
		set2["k"+string(rune('a'+i))] = "v"
	}
	if _, err := r.a.SetMeta("w", as.MetaUpdate{Set: set2}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.a.SetMeta("w", as.MetaUpdate{Set: map[string]string{"z1": "v"}}); err == nil {
		t.Fatal("a 33rd key was taken")
	} else if err.Error() != "agentstate: meta update: the pane would hold more than 32 keys" {
		// The refusal is the update's: it names no key (it named "").
		t.Errorf("33rd key refused as %q", err)
	}
	if _, err := r.a.SetMeta("w", as.MetaUpdate{ClearAll: true, Set: map[string]string{"z1": "v"}}); err != nil || len(r.a.Get("w").Meta) != 1 {
		t.Fatalf("clear: %v %q", err, r.a.Get("w").Meta)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport})
	if r.a.Get("w").Meta != nil {
		t.Fatal("an agent that left keeps its metadata")
	}
}

func TestSetSessionLeavesTheStateAlone(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceScreen, Observed: r.clock.Now()})
	if res := r.a.SetSession("w", "droid", "s1"); !res.Applied || !res.Changed {
		t.Fatalf("%+v", res)
	}
	g := r.a.Get("w")
	if g.SessionID != "s1" || g.State != as.Idle || g.Source != as.SourceScreen {
		t.Fatalf("%+v", g)
	}
	if res := r.a.SetSession("w", "droid", "s1"); res.Changed {
		t.Fatal("a repeat was a change")
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "droid", SessionID: "s1"})
	if res := r.a.SetSession("w", "droid", "s2"); res.Reason != as.ReasonForeignSession {
		t.Fatalf("mid-turn another session: %+v", res)
	}
}
