package cli

import (
	"fmt"
	"strconv"

	"github.com/tuios/tuios/internal/proto"
)

// mailReleaseCommands is release-agent-message: the person passes on mail
// another machine sent while hold_mail held it. Held link mail waits in
// the person's inbox; until released, the agent it was for never sees it.
func mailReleaseCommands() []Command {
	return []Command{{
		Name: "release-agent-message", Summary: "pass on mail another machine sent that hold_mail kept for you",
		Usage: "ID [-s SESSION] [--json]",
		Help: "With hold_mail = true under [hosts.NAME], mail that machine sends to anyone here but human is kept in your inbox, marked held for the pane it was meant for. " +
			"Releasing delivers it there as a new message with the original sender and origin, released_from naming the held one. A message is released once; " +
			"a second release is invalid_params, and a pane that has closed since is window_not_found. It acts as the person: it needs the human nonce of an attached client " +
			"(the Inbox's p on the held row does this), so from a pane or a script it fails with not_human. Read what it says first: reading and doing nothing means the agent never sees it.",
		Example: "tuios read-agent-messages -w human --unread\ntuios release-agent-message 41 -s api",
		Flags: func(fs *FlagSet) {
			fs.StringP("session", "s", "", "the session holding the mail (default: the one that holds the id)")
			nonceFlag(fs)
			jsonFlag(fs)
		},
		Run: runReleaseMessage,
	}}
}

func runReleaseMessage(ctx *Context) error {
	if len(ctx.Args) != 1 {
		return usageError("tuios release-agent-message 41 -s api", "name the held message's id")
	}
	id, err := strconv.Atoi(ctx.Args[0])
	if err != nil || id < 1 {
		return usageError("the id is the number read-agent-messages -w human shows", "%q is not a message id", ctx.Args[0])
	}
	var raw map[string]any
	if err := call("release-agent-message", proto.ReleaseMessageParams{Session: str(ctx, "session"), ID: id, HumanNonce: str(ctx, "human-nonce")}, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, raw)
	}
	var res proto.MessageReleased
	remarshal(raw, &res)
	to := res.ToName
	if to == "" {
		to = "the session (a notice)"
	}
	fmt.Fprintf(ctx.Stdout, "Released %d in %s to %s as message %d (thread %d)\n", res.HeldID, escapeControls(res.Session), escapeControls(to), res.MessageID, res.ThreadID)
	return nil
}
