package herdr

import (
	"encoding/json"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/shquote"
)

// agent.start: type a known harness's command
// into a pane that sits at its shell prompt. tuios has no verb that starts
// an agent, so this does what a person would: it types the command line,
// quoted for the pane's shell, and presses Enter. Nothing is typed unless
// every check passed first: the pane's shell is at its prompt (the shell
// holds the terminal's foreground), no agent is active there, the kind is
// known and every argument can be quoted for that shell.

// startCommand is the harness a herdr or tuios kind names and the program
// it runs as (detect's StartProgram).
func (h *Sock) startCommand(kind string) (harness, program string, ok bool) {
	reg := h.core.Tracker().Detector().Registry()
	if reg == nil {
		return "", "", false
	}
	m, found := reg.Lookup(detect.HarnessForKind(kind))
	if !found {
		return "", "", false
	}
	if prog := m.StartProgram(); prog != "" && shquote.Typable(prog) {
		return m.ID, prog, true
	}
	return m.ID, "", false
}

// shellQuoting is how a shell reads a quoted word: "posix" (sh, bash, zsh,
// dash, ksh, mksh, ash), "fish", or "" for a shell whose quoting tuios
// does not write (nu, elvish, xonsh, pwsh, csh, tcsh).
func shellQuoting(comm string) string {
	switch comm {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash":
		return "posix"
	case "fish":
		return "fish"
	}
	return ""
}

// strList reads a list of strings (absent or null: none).
func (p herdrParams) strList(name string) ([]string, *Err) {
	if !p.has(name) {
		return nil, nil
	}
	var out []string
	if err := json.Unmarshal(p[name], &out); err != nil {
		return nil, herdrBadType(name, "a sequence of strings")
	}
	return out, nil
}

func (h *Sock) agentStart(call *herdrCall, p herdrParams) (any, *Err) {
	name, herr := p.str("name", true)
	if herr != nil {
		return nil, herr
	}
	kind, herr := p.str("kind", true)
	if herr != nil {
		return nil, herr
	}
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	args, herr := p.strList("args")
	if herr != nil {
		return nil, herr
	}
	// timeout_ms bounds the link's wait for the agent to come to rest
	// (`herdr agent start`); the method itself answers once it typed.
	if _, herr := p.timeout(30000); herr != nil {
		return nil, herr
	}
	harness, program, ok := h.startCommand(kind)
	if !ok {
		// herdr's kind is an enum: an unknown one is serde's unknown
		// variant, an invalid_request.
		if harness != "" {
			return nil, errorf(proto.CodeInvalidRequest, "the harness "+harness+" names no program to start")
		}
		return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(kind, 64)+"`: not a known agent kind (a herdr name such as claude, or a tuios harness id)")
	}

	// The pane: its own process must be a shell, and that shell must hold
	// the foreground (no program runs in it). A foreground that cannot be
	// read is busy too: typing blind could land in anything.
	shell := w.Pane.Pid()
	comm := procComm(shell)
	fg, err := w.Pane.ForegroundPgrp()
	switch {
	case err != nil:
		return nil, errorf("agent_pane_busy", "the pane's foreground cannot be read; nothing was typed")
	case !isShellName(comm):
		return nil, errorf("agent_pane_busy", "the pane runs "+core.Clip(comm, 32)+", not a shell; nothing was typed")
	case fg != shell:
		return nil, errorf("agent_pane_busy", "the pane runs "+core.Clip(pgrpName(fg), 32)+" in the foreground, not at its shell prompt; nothing was typed")
	}
	switch st := h.core.Tracker().Arbiter().Get(w.ID).State; st {
	case agentstate.Working, agentstate.NeedsInput:
		return nil, errorf("agent_pane_busy", "an agent in the pane is "+herdrStatus(st)+"; nothing was typed")
	}

	style := shellQuoting(comm)
	argv := append([]string{program}, args...)
	for _, a := range argv {
		if !shquote.Typable(a) {
			return nil, errorf("invalid_agent_argument", "an argument holds a control character (a newline or an escape), which would act as a key; nothing was typed")
		}
	}
	if style == "" && (len(args) > 0 || !shquote.Bare(program)) {
		return nil, errorf("invalid_agent_argument", "the pane's shell is "+core.Clip(comm, 32)+": tuios quotes arguments only for POSIX shells and fish; nothing was typed")
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shquote.Word(style, a)
	}
	line := strings.Join(words, " ")

	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	if name = strings.TrimSpace(name); name != "" {
		if _, herr := h.callVerb(call, "set-window", map[string]any{"session": session, "window": window, "name": name}); herr != nil {
			return nil, herr
		}
	}
	// Typed, then Enter: the same bytes a person's keys would send.
	if _, herr := h.callVerb(call, "send-text", map[string]any{"session": session, "window": window, "text": line + "\r"}); herr != nil {
		return nil, herr
	}
	res := map[string]any{"type": "agent_started", "name": name, "kind": herdrAgentName(harness), "argv": argv}
	for _, pi := range h.herdrView(call.gc).panes {
		if herdrNamesWindow(pi.PaneID, w.ID) {
			res["pane_id"] = pi.PaneID
			res["agent"] = pi
		}
	}
	return res, nil
}

// pgrpName names a foreground process group by its leader, else by any
// member (the leader may have exited).
func pgrpName(pgrp int) string {
	if n := procComm(pgrp); n != "" {
		return n
	}
	for _, pid := range pgrpMembers(pgrp) {
		if n := procComm(pid); n != "" {
			return n
		}
	}
	return "a program"
}
