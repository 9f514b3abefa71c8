package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// sessionMetaCommands are the labels a person gives a session and its
// workspaces: a display name, an accent colour, workspace names and the
// workspaces' order. None of them changes how a session or a workspace is
// addressed: -s always takes the session's name, workspaces their number.
func sessionMetaCommands() []Command {
	return []Command{
		{
			Name: "set-session-name", Summary: "give a session a display name (a label; -s still takes its name)", Usage: "[-s NAME] DISPLAY-NAME [--json]",
			Help: "Sets the name people see for a session: session-info, tuios ls --json and the rail show it. The session keeps its name, and -s and every other address go on using that name. " +
				"The display name is up to 256 bytes of plain text (no control characters); surrounding spaces are dropped. An empty name ('') clears it, and the session's name shows again.",
			Example: "tuios set-session-name -s work 'Payments API'\ntuios set-session-name -s work ''\ntuios set-session-name -s work 'Payments API' --json | jq -r .display_name",
			Flags:   func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios set-session-name -s work 'Payments API' (or '' to clear it)", "give the display name as one argument (quote it when it has spaces)")
				}
				return metaCall(ctx, "set-session-name", proto.SetSessionNameParams{Session: str(ctx, "session"), Name: &ctx.Args[0]})
			},
		},
		{
			Name: "set-session-accent", Summary: "give a session an accent colour", Usage: "[-s NAME] COLOR [--json]",
			Help: "Sets the colour that marks a session where it is listed: red, green, yellow, blue, magenta, cyan or white (the terminal theme's own shades). " +
				"none (or '') clears it. Like the display name it is a label for people and no address.",
			Example: "tuios set-session-accent -s work cyan\ntuios set-session-accent -s work none",
			Flags:   func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios set-session-accent -s work cyan", "give one colour: red, green, yellow, blue, magenta, cyan, white, or none")
				}
				accent := strings.ToLower(strings.TrimSpace(ctx.Args[0]))
				if accent == "none" {
					accent = ""
				}
				return metaCall(ctx, "set-session-accent", proto.SetSessionAccentParams{Session: str(ctx, "session"), Accent: &accent})
			},
		},
		{
			Name: "set-workspace-name", Summary: "name one of a session's workspaces", Usage: "[-s NAME] WORKSPACE NAME [--json]",
			Help: "Names a workspace (1 to 9) of a session. The name shows in list-workspaces, session-info (named 2=review) and the tab bar; the workspace is still addressed by its number. " +
				"Up to 256 bytes of plain text; an empty name ('') clears it.",
			Example: "tuios set-workspace-name -s work 2 review\ntuios set-workspace-name -s work 2 ''",
			Flags:   func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 2 {
					return usageError("tuios set-workspace-name -s work 2 review", "give the workspace number, then its name")
				}
				n, err := strconv.Atoi(ctx.Args[0])
				if err != nil || n < 1 || n > 9 {
					return usageError("tuios set-workspace-name -s work 2 review", "the workspace is a number from 1 to 9, not %q", escapeControls(ctx.Args[0]))
				}
				return metaCall(ctx, "set-workspace-name", proto.SetWorkspaceNameParams{Session: str(ctx, "session"), Workspace: n, Name: &ctx.Args[1]})
			},
		},
		{
			Name: "set-workspace-order", Summary: "reorder a session's workspaces", Usage: "[-s NAME] ORDER [--json]",
			Help: "Lists workspaces in their new order: the first one listed becomes workspace 1, the second 2, and so on. The list holds each of 1 to N once (N up to 9); workspaces after N stay where they are, so 2,1 swaps the first two. " +
				"Windows and workspace names move with their workspace. The screen keeps showing the same workspace under its new number, and the windows keep their focus.",
			Example: "tuios set-workspace-order -s work 2,1\ntuios set-workspace-order -s work 3,1,2 --json | jq .current_workspace",
			Flags:   func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				order, err := parseOrder(ctx.Args)
				if err != nil {
					return err
				}
				return metaCall(ctx, "set-workspace-order", proto.SetWorkspaceOrderParams{Session: str(ctx, "session"), Order: order})
			},
		},
	}
}

// metaCall runs a setter on the session -s names and prints its result
// with --json; otherwise it is quiet, as the other setters are. A name or
// accent is a pointer in their params: an empty one is sent, and clears.
func metaCall(ctx *Context, verb string, p any) error {
	var res json.RawMessage // the four setters' results are only printed
	_, err := callResult(ctx, verb, p, &res)
	return err
}

// parseOrder reads a workspace order given as 2,1,3 or 2 1 3 (or both).
func parseOrder(args []string) ([]int, error) {
	const example = "tuios set-workspace-order -s work 2,1,3"
	var order []int
	for _, a := range args {
		for _, f := range strings.FieldsFunc(a, func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 || n > 9 {
				return nil, usageError(example, "the order lists workspace numbers from 1 to 9, not %q", escapeControls(f))
			}
			order = append(order, n)
		}
	}
	if len(order) == 0 {
		return nil, usageError(example, "give the workspaces in their new order, such as 2,1,3")
	}
	if len(order) > 9 {
		return nil, usageError(example, "the order lists %d workspaces; a session has 9", len(order))
	}
	return order, nil
}

// workspaceNames formats session-info's workspace_names as 2=review 3=logs,
// in workspace order.
func workspaceNames(named map[string]string) string {
	var parts []string
	for n := 1; n <= 9; n++ {
		if v, ok := named[strconv.Itoa(n)]; ok {
			parts = append(parts, fmt.Sprintf("%d=%s", n, v))
		}
	}
	return strings.Join(parts, " ")
}
