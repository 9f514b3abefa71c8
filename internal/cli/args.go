package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/proto"
)

// argSpec says how many positional arguments a verb takes, so that a word
// too many is an error instead of being dropped (close-window A B used to
// close A alone and succeed).
type argSpec struct {
	// max is the most positional arguments; -1 takes any number (text
	// that is joined, a program's argv after --).
	max int
	// window is the 1-based position of an argument that may stand for
	// -w (get-window build): with -w given it is one word too many, and
	// given empty it is refused as -w "" is.
	window int
}

// argSpecs is every runnable verb's positional arguments. A verb missing
// here fails TestEveryVerbDeclaresItsArguments.
func argSpecs() map[string]argSpec {
	many := argSpec{max: -1}
	none := argSpec{}
	one := argSpec{max: 1}
	win := argSpec{max: 1, window: 1}
	return map[string]argSpec{
		"risk check": many, "daemon": none, "version": none, "kill-server": none, "list-verbs": one, "events": none,
		"new": one, "ls": none, "kill-session": one, "session-info": none, "new-window": many, "list-windows": none,
		"get-window": win, "list-workspaces": none, "focus-window": win, "move-window": {max: 2}, "select-workspace": one,
		"split-window": many, "set-layout": none, "popup": many, "set-session-name": one, "set-session-accent": one,
		"set-workspace-name": {max: 2}, "set-workspace-order": many,
		"set-window": win, "close-window": win, "run-command": {max: 2, window: 2}, "capture-pane": win, "screenshot": win,
		"send-text": many, "send-keys": many, "wait-for": one, "set-agent-state": one, "get-agent-state": win,
		"list-agents": none, "explain-agent-detect": win, "explain-agent-screen": win, "status": one, "agent-hook": many,
		"resolve-pane": none, "integration install": one, "integration uninstall": one, "integration status": one,
		"doctor agents": none, "send-agent-message": many, "read-agent-messages": none, "stash put": one,
		"stash list": none, "stash get": {max: 2}, "ask-agent": many, "release-agent-message": one, "peek-prompt": win,
		"respond": many, "queue": many, "queue ls": none, "queue rm": one, "review": one, "review note": many,
		"review notes": none, "review send": none, "agent-log": none, "agent-transcript": none, "resume-agent": none, "list-attention": none,
		"dismiss-attention": one, "mark-attention": {max: 2}, "ask-human": many, "answer-ask": {max: 2}, "demo": none,
		"attach": one, "stdio-proxy": none, "hosts": none, "hosts add": {max: 2}, "hosts remove": one, "hosts rm": one,
		"hosts test": one, "config apply": none, "outbox": none, "set-config": {max: 2}, "get-config": one, "list-options": one, "list-themes": none, "start-agent": many, "agent-proto": many, "mcp": none,
		"pane-grants": none, "set-pane-grants": none,
		"notify test": none, "completion": one,
		"worktree new": one, "worktree ls": none, "worktree rm": one, "worktree diff": one, "worktree pull": one,
		"fan": {max: 2}, "fan compare": one, "fan verify": many, "fan diff": {max: 2}, "fan keep": one,
		"cp": {max: 2}, "transfers": none, "transfers pause": many, "transfers resume": many, "transfers cancel": many,
		"transfers wait": many, "transfers clear": many,
	}
}

// checkArgs refuses, before anything runs: an explicitly empty -s or -w
// (only a flag left out means the default, so -w "$TUIOS_PANE_ID" with the
// variable unset cannot type into whatever pane has the focus), and a
// positional argument the verb does not take.
func checkArgs(table []Command, cmd *Command, fs *pflag.FlagSet) error {
	for _, f := range []struct{ name, what, dflt string }{
		{"window", "a window", "leave -w out for the focused one"},
		{"session", "a session", "leave -s out for your own (or the most recent) one"},
	} {
		if fl := fs.Lookup(f.name); fl != nil && fl.Changed && fl.Value.String() == "" {
			flag := "--" + fl.Name
			if fl.Shorthand != "" {
				flag = "-" + fl.Shorthand
			}
			return usageError(fmt.Sprintf("tuios %s --help", cmd.Name),
				"%s is empty: name %s, or %s", flag, f.what, strings.ReplaceAll(f.dflt, "-"+fl.Shorthand, flag))
		}
	}
	spec, ok := argSpecs()[cmd.Name]
	if !ok {
		return nil
	}
	args := fs.Args()
	max := spec.max
	if spec.window > 0 {
		if w := fs.Lookup("window"); w != nil && w.Changed {
			max = spec.window - 1 // -w took the window's place
		} else if len(args) >= spec.window && args[spec.window-1] == "" {
			return usageError(fmt.Sprintf("tuios %s --help", cmd.Name),
				"the window is empty: name a window, or leave it out for the focused one")
		}
	}
	if max < 0 || len(args) <= max {
		return nil
	}
	extra := args[max]
	if len(subVerbs(table, cmd)) > 0 && max == 0 && !strings.HasPrefix(extra, "-") {
		return unknownVerb(table, append(strings.Fields(cmd.Name), args...))
	}
	return usageError(fmt.Sprintf("tuios %s takes %s; run tuios %s --help", cmd.Name, argCount(max), cmd.Name),
		"unexpected argument %q", escapeControls(extra))
}

func argCount(n int) string {
	switch n {
	case 0:
		return "no arguments"
	case 1:
		return "one argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

// paramWord is how a person gives a daemon param to one verb, when it is
// not a flag of the same name: a positional argument, or a flag in other
// units.
type paramWord struct {
	name string // what the message calls it: "the text", "--for"
	hint string // what to do instead
}

// paramWords maps a verb's daemon params to the words its errors use. A
// param that is a flag of the same name (session_id → --session-id) needs
// no entry; one that is neither falls back to its name in words.
func paramWords() map[string]map[string]paramWord {
	itemID := paramWord{"the item id", "give the item id: tuios list-attention shows it after #"}
	text := paramWord{"the text", "give the text to send, or - to read it from standard input"}
	return map[string]map[string]paramWord{
		"send-text":          {"text": text},
		"send-agent-message": {"text": text},
		"ask-agent":          {"text": text},
		"queue":              {"text": paramWord{"the text", "give the text to queue"}},
		"send-keys":          {"keys": paramWord{"a key to press", "name the keys to press, such as Enter or ctrl+c"}},
		"select-workspace":   {"workspace": paramWord{"the workspace", "give a workspace from 1 to 9"}},
		"dismiss-attention":  {"id": itemID},
		"mark-attention": {"id": itemID, "action": paramWord{"the action", "snooze, wake, restore, unread or undo"},
			"for_ms":   paramWord{"--for", "--for is at most a year (8760h)"},
			"until_ms": paramWord{"--until", "--until is a time within a year"}},
		"respond": {"value": paramWord{"the answer", "choose takes an option number from 1 (tuios peek-prompt lists them); text takes the answer to type"},
			"action": paramWord{"the answer", "approve, approve_always, deny, choose N or text ANSWER"}},
		"new-window":            {"name": paramWord{"the window name", "the name is the first word after the flags"}},
		"new":                   {"name": paramWord{"the session name", "the session name is the first word after the flags"}},
		"kill-session":          {"session": paramWord{"the session", "name the session to kill"}},
		"set-agent-state":       {"state": paramWord{"the state", "give the state as the first word"}},
		"wait-for":              {"condition": paramWord{"the condition", "name one condition: window-output, window-idle, window-exit, session-exists, agent-state or agent-message"}},
		"answer-ask":            {"request_id": paramWord{"the request id", "give the request id, then the answer"}, "answer": paramWord{"the answer", "give the request id, then the answer"}},
		"release-agent-message": {"id": paramWord{"the message id", "the id is the number read-agent-messages -w human shows"}},
		"queue rm":              {"id": paramWord{"the queued message's id", "tuios queue ls shows the ids"}},
		"run-command":           {"command": paramWord{"the command", "tuios run-command --list names them"}},
		"stash put":             {"path": paramWord{"the file", "name the file to stash"}},
		"stash get":             {"name": paramWord{"the stored path", "tuios stash list shows them"}},
		"cp":                    {"src": paramWord{"SRC", "name the file or folder to copy, then where"}, "dst": paramWord{"DST", "name where to copy it, after SRC"}},
		"ask-human":             {"question": paramWord{"the question", "give the question, then -o for each answer"}, "options": paramWord{"the answers", "give each answer with -o"}},
	}
}

// speakFlags puts a daemon error about a param into the verb's own words:
// the flag the person typed, or the argument it stands for. The daemon
// names its protocol params (for_ms, text, value); a hint that said "the
// flag is --text" to a verb that takes the text as an argument sent people
// looking for a flag that does not exist. A flag is named only when the
// verb has it. The error's hint says which param and what is wrong with
// it (proto.ParamError): the daemon's message text is never parsed.
func speakFlags(cmd *Command, fs *pflag.FlagSet, err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Code != proto.CodeInvalidParams || e.Untrusted {
		return err
	}
	param := e.Param
	if param == "" {
		return err
	}
	name, hint := "", ""
	if w, ok := paramWords()[cmd.Name][param]; ok {
		name, hint = w.name, w.hint
	} else if flag := strings.ReplaceAll(param, "_", "-"); fs != nil && fs.Lookup(flag) != nil {
		name, hint = "--"+flag, "the flag is --"+flag
	} else {
		name = "the " + strings.ReplaceAll(param, "_", " ")
	}
	if e.Problem != "" {
		e.Message = name + " " + e.Problem
	}
	// A hint of the daemon's own stays (the accepted values, a did you
	// mean); a range is in the daemon's units (for_ms), so the verb's
	// words replace it.
	if hint != "" && (e.Hint == "" || e.Ranged && !strings.HasPrefix(hint, "the flag is")) {
		e.Hint = hint
	}
	if e.Hint == "" {
		e.Hint = fmt.Sprintf("run tuios %s --help", cmd.Name)
	}
	return e
}
