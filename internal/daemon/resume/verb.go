package resume

import (
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// resume-agent: type the command that resumes a pane's agent
// conversation (docs/agents.md, Resume conversations after a restart).

type agentResumed struct {
	Type           string   `json:"type"`
	WindowID       string   `json:"window_id"`
	Harness        string   `json:"harness"`
	AgentSessionID string   `json:"agent_session_id"`
	Argv           []string `json:"argv"`
	Command        string   `json:"command"`
	Typed          bool     `json:"typed"`
}

func (f *Feature) addVerb(h core.Host) {
	params, run := core.Handle(f.resumeAgent)
	h.AddVerb(core.Verb{Name: "resume-agent", Class: core.TypesCommand, Returns: "agent_resumed", Params: params, Run: run,
		Desc:    "Type the command that resumes the pane's agent conversation (the harness's [resume] with its id) at the pane's shell prompt",
		Example: `{"verb":"resume-agent","params":{"window":"api","dry_run":true}}`})
}

// resumeAgent is resume-agent: the command, typed unless dry_run.
func (f *Feature) resumeAgent(c core.Call, p *proto.ResumeAgentParams) (any, *proto.Error) {
	w, perr := f.h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	argv, harness, perr := f.command(w)
	if perr != nil {
		return nil, perr
	}
	res := agentResumed{Type: "agent_resumed", WindowID: w.ID, Harness: harness, Argv: argv, Command: strings.Join(argv, " ")}
	res.AgentSessionID = f.agentSession(w)
	if !p.DryRun {
		if _, perr := f.typeCommand(c, w); perr != nil {
			return nil, perr
		}
		res.Typed = true
	}
	return res, nil
}

// agentSession is the conversation id the window holds: its agent's,
// else the one it had before the restart.
func (f *Feature) agentSession(w core.WindowView) string {
	if id := f.h.Tracker().Arbiter().Get(w.ID).SessionID; id != "" {
		return id
	}
	return w.ResumeID
}
