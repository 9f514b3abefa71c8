// Package agentstate decides, for each terminal pane, which state the
// coding agent in it is in when several sources disagree.
//
// A pane is in one of seven states (None, Working, NeedsInput, Idle, Done,
// Errored, Unknown). Sources report claims about it: the agent itself
// (SourceReport, rank 40), an OSC 7501 program status (SourceProgram, 38),
// the harness's transcript (SourceTranscript, 35), escape sequences and
// titles (SourceOSC, 30), screen rules (SourceScreen, 20), the
// foreground-process detector (SourceDetect, 10) and silence
// (SourceStall, 0). The zero Source, SourceNone, is nobody: it is what an
// unclaimed pane's Snapshot and Change carry, and a Report must name a
// source. An Arbiter holds one claim per pane and applies each Report in a
// fixed order:
//
//  1. a look (a report with Observed set) that repeats its own claim
//     writes nothing, so a frozen spinner ages like silence;
//  2. the IfState guard;
//  3. mid-turn, the agent-session and harness guard;
//  4. the rank gate: a source writes over its own rank or lower, never
//     higher, with one exception, the visible blocker (below). Every
//     screen needs_input is a loan: the claim it displaced comes back as
//     it was (state, source, harness, lifecycle, message and kind) when a
//     later look finds no rule matching (NoMatch);
//  5. the write, which attributes the harness, guesses the kind of a
//     needs_input from its message, and counts finished turns (a turn
//     that worked MinTurn before going to rest, or ended in an explicit
//     done; the agent's own idle after a turn only the detector's
//     appearance began is no finished turn, nor is the stall of one: a
//     slow start is not work).
//
// The visible blocker. A screen rule that sees a prompt (needs_input,
// from the engine's own look) may take a claim ranked above it, and which
// claims it takes at once depends on whether their source could be about
// to describe that prompt itself:
//
//   - A transcript claim is taken at once, however fresh, even when the
//     record behind it was read after the prompt was painted. The
//     transcript never says needs_input: its records land at message
//     boundaries, and the record a permission dialog follows is the
//     pending tool call, which reads working. That record is no stale
//     claim to wait out; it is the moment the dialog appears.
//   - A claim at rest (idle, unknown) is taken at once, whoever made it.
//   - A claim from a source that can say needs_input for itself (the
//     agent's own report, an OSC 7501 program status, a title or OSC 9;4
//     sequence) is taken only if the pane painted after it was
//     stamped and it has stood 2 s unrefreshed: the 2 s are the source's
//     chance to describe the new screen first, and if it does, it wins
//     as before.
//
// While the loan stands, a report from a source that cannot see prompts
// (the transcript) does not take the pane back: it is refused with
// ReasonBehindPrompt and kept as the loan's prior, so when the prompt
// leaves the pane shows what the transcript said last (done, if the turn
// ended meanwhile). A hook's report still takes the pane from a loan at
// once: the agent speaks about now, and the top rank stays its own. A
// transcript whose join ends while its claim is on loan yields the prior
// (Yield), so the give-back leaves the state unclaimed rather than held
// by a reader that has gone.
//
// A report that says the state the pane already shows, from a source ranked
// above the claim's, takes the claim whichever way it arrives (a plain
// report, a sampled one, a look): the pane's source, message, kind and
// evidence age become the report's, while the detector's lifecycle (auto,
// misses, the binding of a live agent's report) stays, so the pane still
// clears when the agent leaves. The state does not change: subscribers see a
// Change with From == To, no turn is counted and no waiter wakes. A repeat
// from the source that holds the claim writes nothing on the sampled and
// look paths (a hook repeating itself restamps); the same state from a
// lower rank is refused as outranked. An unclaimed pane showing a state is
// below every source.
//
// Refusals are results, not errors: Result.Reason says outranked,
// if_state, foreign_session or foreign_harness, or that the engine is
// being patient (held, confirming, unchanged, behind_prompt).
//
// Timing rules: quieter states from a sampled source (Report.Hold, used for
// OSC 9;4) are published only after standing 700 ms; an idle reading from
// a look over a working pane must hold on three further looks 100 ms apart
// or for 700 ms; a working pane silent for the stall window (30 s) is
// handed to a screen look first and then demoted to unknown, or to idle
// when there is no screen tier. The stall deadline is exact per pane. All
// of it runs on one one-shot timer from an injectable Clock, armed only
// while something is pending: an arbiter of idle panes holds no timer.
//
// The detector's lifecycle claim (Detected, Reconcile) makes a pane appear
// when an agent is seen and clears it when the agent leaves. Two gaps of
// the engine this one is modelled on are closed here: a report made by a
// live agent (it carried the agent's pid, named the harness the detector
// then sees, or came while the agent was in the foreground) is adopted by
// the detector, so a hooked agent that crashes to its shell no longer pins
// its state; a person's note on a plain shell pane is still never swept.
// An explicit report of None leaves no claim at all, as the detector's
// clear does: every source may report on the pane again, and the detector
// takes it back to working only while it still sees an agent there.
//
// Readers take a Snapshot (Get, All), subscribe to changes (Subscribe,
// which never blocks the arbiter and never loses the newest change;
// closing the subscription ends a range over its channel), or Wait until
// a pane is in one of a set of states.
//
// The package is pure logic: the standard library (and the module's own
// std-only internal/fuzzy for "did you mean"), no goroutines of its
// own, no I/O. It does not read screens, processes or files; package detect
// turns a pane into reports, and the daemon serves them.
package agentstate
