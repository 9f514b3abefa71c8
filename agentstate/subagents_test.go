package agentstate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

func TestSubagentList(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	if res := r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "x"}); res.Recorded || r.a.Get("w").Subagents != 0 {
		t.Fatal("a start on a pane with no state must be ignored")
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "ab34", Type: "general-purpose", Description: "Research tmux"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentTool, ID: "ab34", Tool: "Bash: go test ./..."})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "aa84", Type: "general-purpose", Description: "Audit the rail"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentTool, ID: "aa84", Tool: "Bash: go vet ./..."})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "aa84", Result: "The rail is fine.\nMore lines"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "nope"})
	g := r.a.Get("w")
	if g.Subagents != 1 || len(g.SubagentList) != 2 {
		t.Fatalf("running %d list %d", g.Subagents, len(g.SubagentList))
	}
	first, second := g.SubagentList[0], g.SubagentList[1]
	if first.ID != "ab34" || first.State != "running" || first.Now != "Bash: go test ./..." || first.Tools != 1 {
		t.Fatalf("first %+v", first)
	}
	if second.State != "done" || second.Last != "Bash: go vet ./..." || second.Result != "The rail is fine." {
		t.Fatalf("second %+v", second)
	}
	// Finished ones linger a minute; failed ones five.
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "f"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "f", Failed: true, Result: "boom"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "ab34"})
	if g := r.a.Get("w"); g.SubagentList[0].State != "stopped" {
		t.Fatalf("a stop without a message reads %q", g.SubagentList[0].State)
	}
	r.advance(61 * time.Second)
	if g := r.a.Get("w"); len(g.SubagentList) != 1 || g.SubagentList[0].State != "failed" {
		t.Fatalf("after 1 min: %+v", g.SubagentList)
	}
	r.advance(5 * time.Minute)
	if g := r.a.Get("w"); len(g.SubagentList) != 0 {
		t.Fatalf("after 6 min: %+v", g.SubagentList)
	}
}

func TestSubagentLimitsAndSecrets(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	for i := 0; i < 20; i++ {
		r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: fmt.Sprint("s", i), Description: "token=abc123secretvalue " + strings.Repeat("é", 60)})
	}
	g := r.a.Get("w")
	if g.Subagents != 20 || len(g.SubagentList) != 16 {
		t.Fatalf("running %d shown %d", g.Subagents, len(g.SubagentList))
	}
	d := g.SubagentList[0].Description
	if len(d) > 80 || strings.Contains(d, "abc123") || !strings.Contains(d, "token=****") {
		t.Fatalf("description %q (%d bytes)", d, len(d))
	}
	r.a.Activity("w", as.Activity{Kind: as.SessionStart})
	if r.a.Get("w").Subagents != 0 {
		t.Fatal("session start must forget every subagent")
	}
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport})
	if r.a.Get("w").SubagentList != nil {
		t.Fatal("none forgets subagents")
	}
}

func TestActivityIsRateLimited(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	var res as.ActivityResult
	n := 0
	for ; n < 100 && res.Reason == ""; n++ {
		res = r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "x"})
	}
	if res.Reason != as.ReasonRateLimited || n != 65 {
		t.Fatalf("limited after %d: %+v", n, res)
	}
	r.advance(time.Second)
	for i := 0; i < 10; i++ {
		if res := r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "x"}); !res.Recorded {
			t.Fatalf("refill %d: %+v", i, res)
		}
	}
}

func TestActivityNeverMovesBetweenAgents(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport, Harness: "claude-code", SessionID: "s1"})
	// At rest too: a report's guard would let a new session take over,
	// but an activity event from another agent is always refused.
	if res := r.a.Activity("w", as.Activity{Kind: as.SessionStart, SessionID: "s2"}); res.Reason != as.ReasonForeignSession {
		t.Fatalf("foreign session: %+v", res)
	}
	if res := r.a.Activity("w", as.Activity{Kind: as.SessionStart, Harness: "codex"}); res.Reason != as.ReasonForeignHarness {
		t.Fatalf("foreign harness: %+v", res)
	}
	if res := r.a.Activity("w", as.Activity{Kind: as.SessionStart, SessionID: "s1", Harness: "claude-code"}); !res.Recorded {
		t.Fatalf("own session: %+v", res)
	}
}

func TestASubagentStartTakesTheDescriptionItsTaskCallGave(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.a.Activity("w", as.Activity{Kind: as.SubagentIntent, Type: "general-purpose", Description: "Research tmux"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentIntent, Type: "Explore", Description: "Find the parser"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentIntent, Type: "general-purpose", Description: "Audit the rail"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "a", Type: "general-purpose"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "b", Type: "general-purpose"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "c", Type: "general-purpose"})
	l := r.a.Get("w").SubagentList
	if l[0].Description != "Research tmux" || l[1].Description != "Audit the rail" || l[2].Description != "" {
		t.Fatalf("descriptions: %+v", l)
	}
	// A description nobody started within 30 s is not handed to a later one.
	r.a.Activity("w", as.Activity{Kind: as.SubagentIntent, Type: "Explore", Description: "Late"})
	r.advance(31 * time.Second)
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "d", Type: "Explore"})
	if d := r.a.Get("w").SubagentList[3].Description; d != "" {
		t.Fatalf("a stale description was taken: %q", d)
	}
}

func TestNowFollowsTheAgentsReportsAndClearsAtRest(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Now: "Bash: go test ./...\nsecond line"})
	if g := r.a.Get("w"); g.Now != "Bash: go test ./..." {
		t.Fatalf("now %q", g.Now)
	}
	// Another source saying the same state leaves it alone.
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceScreen, Observed: r.clock.Now(), Message: "approve"})
	if g := r.a.Get("w"); g.Now != "Bash: go test ./..." {
		t.Fatalf("a screen loan cleared now: %q", g.Now)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Now: "Edit: main.go"})
	if g := r.a.Get("w"); g.Now != "Edit: main.go" {
		t.Fatalf("now %q", g.Now)
	}
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport})
	if g := r.a.Get("w"); g.Now != "" {
		t.Fatalf("done kept now %q", g.Now)
	}
}

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"export OPENAI_API_KEY=sk-proj-abcdefghijklmnop":           "export OPENAI_API_KEY=****",
		"curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30'": "curl -H 'Authorization: **** ****'",
		"push with ghp_abcdefghijklmnopqrstuvwx now":               "push with **** now",
		"password: hunter2": "password: ****",
		"go test ./...":     "go test ./...",
	} {
		if got := as.MaskSecrets(in); got != want {
			t.Errorf("MaskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

// SubagentsChangeAt says when the list changes by the clock alone, so a
// view can redraw then: a finished row's minute, a failed row's five,
// and the hour of quiet after which the list is hidden.
func TestSubagentsChangeAt(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	if at := r.a.Get("w").SubagentsChangeAt; !at.IsZero() {
		t.Fatalf("no subagents, yet a change at %v", at)
	}
	start := r.now()
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "run"})
	if at := r.a.Get("w").SubagentsChangeAt; !at.Equal(start.Add(time.Hour)) {
		t.Fatalf("one running: changes at %v, want the hour of quiet %v", at, start.Add(time.Hour))
	}
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "ok"})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStart, ID: "bad"})
	r.advance(10 * time.Second)
	stopped := r.now()
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "bad", Failed: true})
	r.a.Activity("w", as.Activity{Kind: as.SubagentStop, ID: "ok", Result: "fine"})
	if at := r.a.Get("w").SubagentsChangeAt; !at.Equal(stopped.Add(time.Minute)) {
		t.Fatalf("a finished row: changes at %v, want %v", at, stopped.Add(time.Minute))
	}
	r.advance(time.Minute)
	g := r.a.Get("w")
	if len(g.SubagentList) != 2 || !g.SubagentsChangeAt.Equal(stopped.Add(5*time.Minute)) {
		t.Fatalf("after the minute: %d rows, changes at %v, want the failed row's %v", len(g.SubagentList), g.SubagentsChangeAt, stopped.Add(5*time.Minute))
	}
}
