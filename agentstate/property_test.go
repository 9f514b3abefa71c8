package agentstate_test

import (
	"math/rand"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// TestArbiterProperties drives random sequences of reports, looks, yields,
// detector ticks and clock advances, and checks after every step that:
//
//   - a claim is never replaced by a lower-ranked one except through a live
//     loan (whose prior is exactly what it displaced), a yield, a stale event
//     claim, the stall deadline or the detector's lifecycle;
//   - every loan is given back by the next no-match look, as it was: the
//     prior's state, source, harness, message and kind; a transcript
//     report made while a loan stands waits behind it, as its prior;
//   - a report that says the state the pane shows takes the claim when its
//     source ranks above the claim's (and publishes no state change, counts
//     no turn), is unchanged on the sampled path when it comes from the
//     holder, and is refused as outranked when it ranks below;
//   - the hold never publishes a quieter state sooner than 700 ms after the
//     first sample of it.
func TestArbiterProperties(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 50
	}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		runProperty(t, seed, 300)
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
}

var debugProperty = false

type holdRun struct {
	state as.State
	start time.Time
	live  bool
}

func runProperty(t *testing.T, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	var r *rig
	lookAnswers := false
	r = newRig(t, as.Options{Look: func(pane string, why as.LookReason) as.LookResult {
		return as.LookResult{Screen: true, Answered: lookAnswers}
	}})
	panes := []string{"a", "b"}
	runs := map[string]*holdRun{"a": {}, "b": {}}
	sub := r.a.Subscribe(as.SubscribeOptions{Buffer: 4096})
	defer sub.Close()

	states := as.States()
	pick := func() as.State { return states[rng.Intn(len(states))] }
	sightings := []as.Sighting{
		{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram},
		{Agent: true, Harness: "codex", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram},
		{Foreground: as.ForegroundShell}, {Foreground: as.ForegroundProgram}, {Foreground: as.ForegroundExited},
	}

	for step := 0; step < steps; step++ {
		id := panes[rng.Intn(len(panes))]
		before := r.a.Get(id)
		op := rng.Intn(12)
		var res as.Result
		checkRank := false
		said, sayer, saying := as.State(0), as.Source(0), false // the report of this step
		switch op {
		case 0, 1: // a caller's report
			src := as.CallerSources()[rng.Intn(4)]
			if src == as.SourceOSC {
				src = as.SourceReport // OSC arrives only through the hold here
			}
			said, sayer, saying = pick(), src, true
			res = r.apply(id, as.Report{State: said, Source: src, Message: "m", HarnessPID: rng.Intn(3)})
			checkRank = true
		case 2: // an engine source
			src := []as.Source{as.SourceProgram, as.SourceTranscript}[rng.Intn(2)]
			said, sayer, saying = pick(), src, true
			res = r.apply(id, as.Report{State: said, Source: src})
			checkRank = true
			if src == as.SourceTranscript && before.Loan {
				// A source that cannot see prompts waits behind the loan:
				// nothing shown moves, and its word is what comes back.
				after := r.a.Get(id)
				if res.Applied || res.Reason != as.ReasonBehindPrompt || after.State != before.State || after.Source != before.Source ||
					!after.Loan || after.Prior.Source != as.SourceTranscript || after.Prior.State != said || !after.Prior.Claimed {
					t.Fatalf("seed %d step %d: transcript %s over a loan: %+v → %+v", seed, step, said, res, after)
				}
				saying = false
			}
		case 3, 4: // a screen look
			r.paint(id)
			s := []as.State{as.NeedsInput, as.NeedsInput, as.Idle, as.Working}[rng.Intn(4)]
			said, sayer, saying = s, as.SourceScreen, true
			res = r.look(id, as.SourceScreen, s, []string{"approve?", "which?"}[rng.Intn(2)])
			checkRank = true
		case 5: // a look that matched nothing
			r.paint(id)
			res = r.a.NoMatch(id, as.SourceScreen)
			after := r.a.Get(id)
			if before.Loan {
				p := before.Prior
				if after.Loan || after.State != p.State || after.Claimed != p.Claimed || (p.Claimed && after.Source != p.Source) || after.Harness != p.Harness ||
					after.Message != p.Message || after.Kind != p.Kind {
					t.Fatalf("seed %d step %d: loan not given back: prior %+v, now %+v", seed, step, p, after)
				}
			}
		case 6: // OSC 9;4 through the hold
			s := []as.State{as.Working, as.Idle, as.Idle, as.Errored, as.NeedsInput}[rng.Intn(5)]
			said, sayer, saying = s, as.SourceOSC, true
			res = r.apply(id, as.Report{State: s, Source: as.SourceOSC, Hold: true})
			if before.Claimed && before.Source == as.SourceOSC && s == before.State && res.Reason != as.ReasonUnchanged {
				t.Fatalf("seed %d step %d: the holder's sample of the shown state %s wrote: %+v", seed, step, s, res)
			}
			run := runs[id]
			if res.Reason == as.ReasonHeld {
				if !run.live || run.state != s {
					*run = holdRun{state: s, start: r.now(), live: true}
				}
			} else {
				run.live = false
			}
			checkRank = true
		case 7:
			r.a.Yield(id, as.Sources()[rng.Intn(7)])
		case 8:
			res = r.a.Detected(id, sightings[rng.Intn(len(sightings))])
			if res.Changed && r.a.Get(id).State == as.None {
				runs[id].live = false
			}
		case 9:
			r.paint(id)
			res = r.a.Reconcile(id, sightings[rng.Intn(len(sightings))])
		case 10:
			lookAnswers = rng.Intn(2) == 0
			r.advance(time.Duration(rng.Intn(1500)) * time.Millisecond)
		case 11:
			r.advance(time.Duration(rng.Intn(40)) * time.Second)
		}
		if op <= 4 && res.Changed {
			if s := r.a.Get(id); !(s.Claimed && s.Source == as.SourceOSC) {
				runs[id].live = false // another source's write cancels a hold
			}
		}
		after := r.a.Get(id)
		if debugProperty {
			t.Logf("step %d %s op %d: %s/%s → %s/%s (%+v) run %+v", step, id, op, before.State, before.SourceName(), after.State, after.SourceName(), res, *runs[id])
		}
		if checkRank && res.Applied && res.Changed && before.Claimed && after.Claimed && after.Source.Rank() < before.Source.Rank() {
			loanOK := after.Loan && ((before.Loan && after.Prior == before.Prior) ||
				(!before.Loan && after.Prior.Source == before.Source && after.Prior.State == before.State))
			if !loanOK && before.State != as.None {
				t.Fatalf("seed %d step %d: %s claim %s displaced by lower %s claim %s without a loan (%+v)",
					seed, step, before.Source, before.State, after.Source, after.State, after)
			}
		}
		// The shown state, said again: a higher source takes the claim, a
		// lower one is refused, and neither moves the state or the turns.
		sameState := saying && before.Claimed && said == before.State && before.State != as.None
		if sameState && sayer.Rank() > before.Source.Rank() {
			if !res.Applied || after.State != before.State || !after.Claimed || after.Source != sayer ||
				after.CompletionSeq != before.CompletionSeq || after.Auto != before.Auto {
				t.Fatalf("seed %d step %d: %s saying the shown %s over %s: %+v → %+v", seed, step, sayer, said, before.Source, res, after)
			}
		}
		if sameState && sayer.Rank() < before.Source.Rank() && (res.Applied || res.Reason != as.ReasonOutranked) {
			t.Fatalf("seed %d step %d: lower %s saying the shown %s over %s: %+v", seed, step, sayer, said, before.Source, res)
		}
		// Hold: a quieter OSC state is published ≥ 700 ms after its first
		// sample.
	drain:
		for {
			select {
			case c := <-sub.C:
				if sameState && c.Pane == id && c.From != c.To {
					t.Fatalf("seed %d step %d: the shown state said again published %s→%s", seed, step, c.From, c.To)
				}
				if c.Claimed && c.Source == as.SourceOSC && c.To.Loudness() < c.From.Loudness() && (op == 6 || op == 10 || op == 11) {
					run := runs[c.Pane]
					if !run.live || run.state != c.To || c.At.Sub(run.start) < 700*time.Millisecond {
						t.Fatalf("seed %d step %d: %s published %s→%s at %v, run %+v", seed, step, c.Pane, c.From, c.To, c.At.Sub(t0), run)
					}
					run.live = false
				}
			default:
				break drain
			}
		}
	}
}
