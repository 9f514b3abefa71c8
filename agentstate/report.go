package agentstate

import (
	"time"
	"unicode/utf8"
)

// Report is one claim about a pane's state, from any source.
type Report struct {
	State   State
	Source  Source // who makes the claim; required: SourceNone (the zero value) is refused as invalid
	Harness string // the harness id the source names; "" leaves the attribution alone
	Message string // plain words: what it is doing or asking
	Kind    Kind   // for needs_input; KindNone lets the engine guess from Message

	// Observed is when the pane last painted what this report read. Only
	// the engine's own looks (screen, title and notification rules) set
	// it; a report with a zero Observed has looked at nothing, so it can
	// never take the visible-blocker exception.
	Observed time.Time

	// Event marks a claim from a one-off notification: once the pane writes
	// again, any look ranked at least screen may replace it.
	Event bool

	// Hold routes the report through the 700 ms hold: a sampled source
	// (OSC 9;4) whose quieter states must stand before they are published.
	Hold bool

	// IfState applies the report only when the pane is in one of these
	// states (a hook's "only from needs_input"). Empty means any.
	IfState StateSet

	// SessionID and HarnessPID identify the agent session a hook speaks
	// for; mid-turn, a report from another session is refused.
	SessionID  string
	HarnessPID int

	// Now is what the agent is doing at this moment, in one line (the
	// tool and its target: "Bash: go test ./..."). An applied report from
	// the agent itself (SourceReport) replaces it, so a report without it
	// clears it; other sources leave it alone, and every state at rest
	// clears it.
	Now string
}

// Result says what happened to a report. A refusal is not an error.
type Result struct {
	State   State  // what the pane shows now
	Applied bool   // the report was accepted (possibly changing nothing)
	Changed bool   // something a reader can see was written
	Reason  Reason // why not, when !Applied
}

// Reason says why a report was not applied.
type Reason string

// Refusal reasons. The first four are the control protocol's; the rest
// describe the engine's own patience and are never errors either.
const (
	ReasonNone           Reason = ""
	ReasonOutranked      Reason = "outranked"       // a higher-ranked source owns the pane
	ReasonIfState        Reason = "if_state"        // the pane was not in a state the report allowed
	ReasonForeignSession Reason = "foreign_session" // mid-turn, another agent session owns the pane
	ReasonForeignHarness Reason = "foreign_harness" // mid-turn, another harness owns the pane
	ReasonHeld           Reason = "held"            // a quieter sampled state waits out the hold
	ReasonConfirming     Reason = "confirming"      // an idle reading waits for confirming looks
	ReasonUnchanged      Reason = "unchanged"       // a sampled report repeating the shown state from the source that holds it
	ReasonInvalid        Reason = "invalid"         // the state is out of range, or the report names no valid source
	ReasonRateLimited    Reason = "rate_limited"    // activity events past the pane's rate
	ReasonBehindPrompt   Reason = "behind_prompt"   // a visible prompt holds the pane; the report comes back when it leaves
)

// maxMessageBytes bounds a stored message. Longer text is cut at a rune
// boundary; it is display text, not a transcript.
const maxMessageBytes = 512

// cleanMessage strips control characters (a message is drawn in a title
// bar and must not move the cursor) and cuts it to maxMessageBytes. It
// returns msg itself, without allocating, when nothing needs to change.
func cleanMessage(msg string) string {
	clean := len(msg) <= maxMessageBytes
	if clean {
		for i := 0; i < len(msg); i++ {
			if c := msg[i]; c < 0x20 || c == 0x7f {
				clean = false
				break
			}
		}
		if clean && !utf8.ValidString(msg) {
			clean = false
		}
	}
	if clean {
		return msg
	}
	out := make([]rune, 0, len(msg))
	size := 0
	for _, r := range msg {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			if r == '\t' || r == '\n' || r == '\r' {
				r = ' '
			} else {
				continue
			}
		}
		size += utf8.RuneLen(r)
		if size > maxMessageBytes {
			break
		}
		out = append(out, r)
	}
	return string(out)
}

// kindFor is the kind stored with a state: only needs_input carries one; an
// explicit kind wins over the guess.
func kindFor(s State, explicit Kind, msg string) Kind {
	if s != NeedsInput {
		return KindNone
	}
	if explicit != KindNone {
		return explicit
	}
	return GuessKind(msg)
}
