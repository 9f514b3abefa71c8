package agentstate_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
)

func TestStateTable(t *testing.T) {
	tests := []struct {
		s                 agentstate.State
		name, glyph, seen string
		ascii             string
		needsYou, ready   bool
		loud              int
		activity          string
	}{
		{agentstate.None, "none", "", "", "", false, true, 0, "none"},
		{agentstate.Working, "working", "●", "●", "*", false, false, 2, "working"},
		{agentstate.NeedsInput, "needs_input", "▲", "▲", "!", true, false, 3, "waiting"},
		{agentstate.Idle, "idle", "○", "○", "o", false, true, 1, "resting"},
		{agentstate.Done, "done", "■", "○", "#", false, true, 1, "resting"},
		{agentstate.Errored, "errored", "×", "×", "x", true, true, 3, "resting"},
		{agentstate.Unknown, "unknown", "□", "□", "?", false, false, 1, "unknown"},
	}
	for _, tt := range tests {
		if tt.s.String() != tt.name || tt.s.Glyph(false) != tt.glyph || tt.s.Glyph(true) != tt.seen ||
			tt.s.ASCII(false) != tt.ascii || tt.s.NeedsYou() != tt.needsYou || tt.s.Ready() != tt.ready ||
			tt.s.Loudness() != tt.loud || tt.s.Activity() != tt.activity {
			t.Errorf("%s: table mismatch", tt.name)
		}
		got, err := agentstate.ParseState(tt.name)
		if err != nil || got != tt.s {
			t.Errorf("ParseState(%q) = %v, %v", tt.name, got, err)
		}
	}
	if agentstate.Done.ASCII(true) != "o" {
		t.Error("a seen done draws o in ASCII")
	}
}

func TestParseStateRejectsUnknownNamesWithTheAcceptedList(t *testing.T) {
	for _, bad := range []string{"", "blocked", "Working", "needs-input"} {
		_, err := agentstate.ParseState(bad)
		var se *agentstate.StateError
		if !errors.As(err, &se) {
			t.Fatalf("ParseState(%q): err %v", bad, err)
		}
		if !strings.Contains(err.Error(), "none, working, needs_input, idle, done, errored, unknown") || se.Code() != agentstate.CodeInvalidParams {
			t.Errorf("error %q does not list the accepted names", err)
		}
	}
	_, err := agentstate.ParseState("needs-input")
	if se := err.(*agentstate.StateError); se.DidYouMean != "needs_input" {
		t.Errorf("did you mean = %q", se.DidYouMean)
	}
}

func TestStateSet(t *testing.T) {
	set, err := agentstate.ParseStateSet("idle, done")
	if err != nil || !set.Has(agentstate.Idle) || !set.Has(agentstate.Done) || set.Has(agentstate.Working) {
		t.Fatalf("ParseStateSet: %v %v", set, err)
	}
	if set.String() != "idle,done" {
		t.Errorf("String = %q", set.String())
	}
	if _, err := agentstate.ParseStateSet("idle,nope"); err == nil {
		t.Error("an unknown member must fail the set")
	}
}

func TestSourceRanksAndCallerSources(t *testing.T) {
	want := map[string]int{"report": 40, "program": 38, "transcript": 35, "osc": 30, "screen": 20, "detect": 10, "stall": 0}
	if len(agentstate.Sources()) != len(want) {
		t.Fatalf("%d sources, want %d", len(agentstate.Sources()), len(want))
	}
	for _, s := range agentstate.Sources() {
		if r, ok := want[s.String()]; !ok || r != s.Rank() || !s.Valid() {
			t.Errorf("%s rank %d valid %v", s, s.Rank(), s.Valid())
		}
		// The wire name round-trips, as text and through ParseSource.
		b, err := s.MarshalText()
		var back agentstate.Source
		if err != nil || string(b) != s.String() || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("%s: marshal %q %v, back %v", s, b, err, back)
		}
		if p, err := agentstate.ParseSource(s.String()); err != nil || p != s {
			t.Errorf("ParseSource(%q) = %v %v", s, p, err)
		}
	}
	for i := 1; i < len(agentstate.Sources()); i++ {
		if agentstate.Sources()[i-1].Rank() <= agentstate.Sources()[i].Rank() {
			t.Error("Sources must be listed most trusted first")
		}
	}
	if s, err := agentstate.ParseCallerSource(""); err != nil || s != agentstate.SourceReport {
		t.Errorf("empty source must be report: %v %v", s, err)
	}
}

// The zero Source is nobody: it prints "none", ranks below every source,
// is written "" on the wire, names no claim, and a report carrying it is
// refused and changes nothing.
func TestTheZeroSourceIsNone(t *testing.T) {
	var zero agentstate.Source
	if zero != agentstate.SourceNone || zero.String() != "none" || zero.Valid() || zero.Rank() >= agentstate.SourceStall.Rank() {
		t.Fatalf("zero source: %v valid %v rank %d", zero, zero.Valid(), zero.Rank())
	}
	if b, err := zero.MarshalText(); err != nil || len(b) != 0 {
		t.Errorf("SourceNone marshals as %q %v, want \"\"", b, err)
	}
	back := agentstate.SourceScreen
	if err := back.UnmarshalText(nil); err != nil || back != agentstate.SourceNone {
		t.Errorf(`"" unmarshals as %v %v`, back, err)
	}
	for _, name := range []string{"none", ""} {
		if _, err := agentstate.ParseSource(name); err == nil {
			t.Errorf("ParseSource(%q) accepted", name)
		}
	}

	a := agentstate.New(agentstate.Options{StallAfter: -1})
	sub := a.Subscribe(agentstate.SubscribeOptions{})
	if res := a.Apply("w", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceNone}); res.Applied || res.Reason != agentstate.ReasonInvalid {
		t.Fatalf("a report naming no source: %+v", res)
	}
	if s := a.Get("w"); s.State != agentstate.None || s.Claimed || s.Source != agentstate.SourceNone || s.SourceName() != "" {
		t.Fatalf("after a refused report: %+v", s)
	}
	a.Apply("w", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport})
	a.Apply("w", agentstate.Report{State: agentstate.None, Source: agentstate.SourceReport}) // gives the pane back
	sub.Close()
	var got []string
	for c := range sub.C {
		got = append(got, fmt.Sprintf("%s->%s %s %q", c.From, c.To, c.Source, c.SourceName()))
	}
	if want := `none->working report "report",working->none none ""`; strings.Join(got, ",") != want {
		t.Errorf("changes %q, want %q", strings.Join(got, ","), want)
	}
}

// Scenario 5.
func TestTranscriptIsNotAcceptedFromACaller(t *testing.T) {
	for _, name := range []string{"transcript", "detect", "program", "bogus"} {
		_, err := agentstate.ParseCallerSource(name)
		var se *agentstate.SourceError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "report, osc, screen, stall") {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"report", "osc", "screen", "stall"} {
		if _, err := agentstate.ParseCallerSource(name); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}

func TestGuessKind(t *testing.T) {
	for msg, want := range map[string]agentstate.Kind{
		"":                               agentstate.KindNone,
		"Waits for approval of a tool":   agentstate.KindApproval,
		"Do you want to PROCEED?":        agentstate.KindApproval,
		"Allow edit to main.go":          agentstate.KindApproval,
		"Do you trust the files":         agentstate.KindApproval,
		"Which database should I use?":   agentstate.KindQuestion,
		"needs your permission to run":   agentstate.KindApproval,
		"Please confirm the deploy plan": agentstate.KindApproval,
	} {
		if got := agentstate.GuessKind(msg); got != want {
			t.Errorf("GuessKind(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestIdentityConfidence(t *testing.T) {
	for id, want := range map[agentstate.Identity]string{
		agentstate.IdentityReport: "certain", agentstate.IdentityManifest: "strong",
		agentstate.IdentityList: "strong", agentstate.IdentityHint: "strong", agentstate.IdentityNone: "none",
	} {
		if id.Confidence().String() != want {
			t.Errorf("%q: %s", id, id.Confidence())
		}
	}
}
