package agents

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// explain-agent-detect and explain-agent-screen: why the detector and a
// harness's screen rules decided what they did about a pane.

func (f *Feature) addExplainVerbs(h core.Host) {
	params, run := core.Handle(f.explainDetect)
	h.AddVerb(core.Verb{Name: "explain-agent-detect", Class: core.Reads, Agent: true, Returns: "agent_detect", Params: params, Run: run,
		Desc:    "Say what the detector reads in a pane's foreground and why it is or is not an agent",
		Example: `{"verb":"explain-agent-detect","params":{"window":"build"}}`})
	params, run = core.Handle(f.explainScreen)
	h.AddVerb(core.Verb{Name: "explain-agent-screen", Class: core.Reads, Agent: true, Returns: "agent_screen", Params: params, Run: run,
		Desc:    "Show a pane's screen tail exactly as the rules read it, and what each rule made of it",
		Example: `{"verb":"explain-agent-screen","params":{"window":"build","harness":"codex","lines":20}}`})
}

// explainDetect is explain-agent-detect: the detector's reading of the
// pane's process tree, with the row and the manifests that did not load.
func (f *Feature) explainDetect(c core.Call, p *proto.AgentParams) (any, *proto.Error) {
	st, err := f.h.Seat(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	r := f.row(st)
	ex, derr := f.h.Tracker().Detector().Explain(st.Pane.Pid())
	if derr != nil {
		return nil, proto.Errorf(proto.CodeCommandFailed, "reading the pane's process: %v", derr)
	}
	if r.snap.Claimed && r.snap.Source == agentstate.SourceReport && r.snap.Identity == agentstate.IdentityReport {
		ex.ApplyReport(r.HarnessID)
	}
	opt := f.h.Options()
	if opt.DetectOff {
		ex.DetectionOff()
	}
	return proto.AgentDetect{
		Type: "agent_detect", WindowID: st.Row.WindowID, State: r.State, Source: r.Source, HarnessID: r.HarnessID,
		AutoDetected: r.snap.Auto, EvidenceAgeMS: r.EvidenceAgeMS, NeedsYou: r.NeedsYou, Activity: r.Activity,
		Text: ex.String() + loadErrorText(opt.ManifestErrors), ManifestErrors: manifestErrors(opt.ManifestErrors), Explanation: ex,
	}, nil
}

// explainScreen is explain-agent-screen: the pane's screen tail as the
// harness's rules read it (the pane's harness, else the one named).
func (f *Feature) explainScreen(c core.Call, p *proto.ExplainScreenParams) (any, *proto.Error) {
	w, err := f.h.Window(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	tr := f.h.Tracker()
	reg := tr.Detector().Registry()
	harness := p.Harness
	if harness == "" {
		harness = tr.Arbiter().Brief(w.ID).Harness
	} else if _, ok := reg.Lookup(harness); !ok {
		var ids []string
		for _, m := range reg.Manifests() {
			ids = append(ids, m.ID)
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "no harness %q", harness).
			WithHint(proto.Hint{Param: "harness", DidYouMean: core.NearestWord(harness, ids), Available: ids})
	}
	screen := w.Pane.Tracked().Screen()
	title := screen.Title()
	res := proto.AgentScreen{Type: "agent_screen", WindowID: w.ID, HarnessID: harness, Rule: -1, Title: title}
	m, ok := reg.Lookup(harness)
	if !ok {
		n := p.Lines
		if n == 0 {
			n = detect.DefaultScreenLines
		}
		res.Tail, res.Lines = screen.Tail(n), n
		res.Text = "This pane is not attributed to a harness, so no screen rules run. Name one with --harness.\n"
		return res, nil
	}
	n := p.Lines
	if n == 0 {
		n = m.Screen.ReadLines()
	}
	ex := detect.ExplainScreen(m, screen.Tail(n), title)
	ex.Lines = n // what the rules read here: --lines wins over the manifest's
	snap := tr.Arbiter().Get(w.ID)
	state, source := snap.State.String(), snap.SourceName()
	res.Matched, res.Rule, res.Tail, res.Lines = ex.Matched, ex.Rule, ex.Tail, ex.Lines
	res.State, res.Source, res.Text, res.ScreenExplanation = &state, &source, ex.String(), &ex
	return res, nil
}

// manifestErrors are the manifests that did not load, on the wire.
func manifestErrors(errs []detect.LoadError) []proto.ManifestError {
	out := make([]proto.ManifestError, 0, len(errs))
	for _, e := range errs {
		code, hint, _ := proto.CodeOf(e)
		out = append(out, proto.ManifestError{Source: e.Source, Line: e.Line, Code: code, Reason: e.Reason, Hint: hint})
	}
	return out
}

// loadErrorText is the lines explain-agent-detect's text adds for
// manifests that did not load: a rule someone wrote and that matches
// nothing is most often one of these.
func loadErrorText(errs []detect.LoadError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\nnot loaded: %v\n  hint: %s", e, e.Hint())
	}
	return b.String()
}
