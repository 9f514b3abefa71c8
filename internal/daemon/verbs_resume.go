package daemon

import (
	"context"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// resume-agent: type the command that resumes a pane's agent conversation
// (resume.go; docs/agents.md, Resume conversations after a restart).

type resumeAgentParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's own pane, else the focused one)"`
	DryRun  bool   `json:"dry_run" desc:"only say the command; type nothing"`
}

type agentResumed struct {
	Type           string   `json:"type"`
	WindowID       string   `json:"window_id"`
	Harness        string   `json:"harness"`
	AgentSessionID string   `json:"agent_session_id"`
	Argv           []string `json:"argv"`
	Command        string   `json:"command"`
	Typed          bool     `json:"typed"`
}

func (s *Server) resumeVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *resumeAgentParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		argv, harness, perr := s.resumeCommand(w)
		if perr != nil {
			return nil, perr
		}
		res := agentResumed{Type: "agent_resumed", WindowID: w.ID, Harness: harness, Argv: argv, Command: strings.Join(argv, " ")}
		res.AgentSessionID = s.windowAgentSession(w)
		if !p.DryRun {
			if _, perr := s.typeResume(context.Background(), w, cn); perr != nil {
				return nil, perr
			}
			res.Typed = true
		}
		return res, nil
	})
	add("resume-agent", types.withLink(capOpen)&^access(capWrite), "Type the command that resumes the pane's agent conversation (the harness's [resume] with its id) at the pane's shell prompt", "agent_resumed",
		`{"verb":"resume-agent","params":{"window":"api","dry_run":true}}`, p, h)
}

// windowAgentSession is the conversation id the window holds: its agent's,
// else the one it had before the restart.
func (s *Server) windowAgentSession(w *Window) string {
	if id := s.tracker.Arbiter().Get(w.ID).SessionID; id != "" {
		return id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return w.resumeID
}
