package tui

import (
	"encoding/json"

	"github.com/tuios/tuios/internal/proto"
)

// This file is y on a Resume row (seed 003, "Resuming after a restart":
// with daemon.resume_agents = ask, "y types the resume command, such as
// `claude --resume <id>`, into the pane"). The daemon's resume-agent verb
// does the typing, exactly as `tuios resume-agent -w PANE` does: it builds
// the command from the harness manifest and the conversation id the hook
// recorded, types it only at the shell's prompt, and closes the pane's
// Resume item. The client only asks and reports, so the command a person
// gets from the Inbox is the one the CLI would type.

// resumeRow is y on a Resume row: resume that pane's conversation. A row
// of a linked host is answered on its host (inbox_hosts.go), so only this
// machine's rows come here.
func (m *Model) resumeRow(it item) {
	if it.Kind != "resume" || it.Window == "" || it.Host != "" {
		return
	}
	m.inbox.note = ""
	m.call("resume-agent", proto.ResumeAgentParams{Session: it.Session, Window: it.Window}, "inbox:resume")
}

// resumeReply is resume-agent's answer: the dock says what was typed and
// the list is read again, without the closed row. A refusal (a program
// still runs in the pane, no conversation id) is shown on the row's note
// and the row stays.
func (m *Model) resumeReply(r replyMsg) {
	in := m.inbox
	m.refreshInbox()
	if r.err != nil {
		in.note = clean(r.err.Error())
		return
	}
	var res struct {
		Command string `json:"command"`
		Typed   bool   `json:"typed"`
	}
	json.Unmarshal(r.raw, &res)
	if !res.Typed {
		in.note = "nothing was typed"
		return
	}
	m.say("Typed %s", res.Command)
}
