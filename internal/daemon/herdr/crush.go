package herdr

import "github.com/tuios/tuios/agentstate"

// Crush's permission dialog. Crush ≤ v0.97.1 may report working after
// blocked while its dialog is still up: the report is held back while the
// screen still shows the dialog. (Answering the dialog, which needs a
// Crush process in the pane, is respond's: internal/daemon/attention's
// crush_respond.go.)

const crushHarness = "crush"

// crushHoldsDialog says whether a working report from Crush is to be
// held back: the pane is needs_input and the Crush manifest's rules,
// re-read on the pane's screen now, still find the permission dialog.
func (h *Sock) crushHoldsDialog(w *pane, harness string, snap agentstate.Snapshot) bool {
	if harness != crushHarness || snap.State != agentstate.NeedsInput {
		return false
	}
	reg := h.core.Tracker().Detector().Registry()
	if reg == nil {
		return false
	}
	m, ok := reg.Lookup(crushHarness)
	if !ok {
		return false
	}
	sc := w.Pane.Tracked().Screen()
	if sc == nil {
		return false
	}
	v := m.Screen.Classify(sc.Tail(m.Screen.ReadLines()))
	return v.Matched && v.State == agentstate.NeedsInput && v.Dialog != nil
}
