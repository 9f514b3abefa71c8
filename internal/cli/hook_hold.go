package cli

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/detect/hook"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// holdLimit bounds a whole hold from the hook's side: the daemon holds at
// most 300 s (hold_seconds), the harness waits 310 s on the hook
// (Claude Code integration v4), so the hook always gives up first and the
// harness then asks in its own pane.
const holdLimit = 305 * time.Second

// holdForInbox asks the daemon to hold a permission request for the
// person's Inbox and, when the person decided, prints the harness's
// answer. Every other outcome (no daemon, an older daemon, approvals not
// enabled, a line that cannot be shown, the hold ending unanswered, any
// error) prints nothing: the harness shows its own prompt, so a failure
// can never approve.
func holdForInbox(ctx *Context, harness, session, window string, h hook.Held, say func(string, ...any)) {
	start := time.Now()
	c, err := client.Dial(client.Options{})
	if err != nil {
		say("not held: %v", err)
		return
	}
	defer c.Close()
	c.SetDeadline(start.Add(holdLimit))
	// A daemon that does not list the verb cannot hold: ask it before
	// blocking on it (an unknown verb would be refused anyway, but the
	// list says which params it takes).
	var list struct {
		Verbs []struct {
			Params []struct {
				Name string `json:"name"`
			} `json:"params"`
		} `json:"verbs"`
	}
	if err := c.Call("list-verbs", proto.ListVerbsParams{Verb: "request-approval"}, &list); err != nil || len(list.Verbs) == 0 {
		say("not held: this daemon does not hold approvals (%v)", err)
		return
	}
	known := map[string]bool{}
	for _, p := range list.Verbs[0].Params {
		known[p.Name] = true
	}
	p := map[string]any{"session": session, "window": window, "harness": harness, "summary": h.Summary,
		"options": h.Options, "kind": h.Kind, "tool": h.Tool, "target": h.Target, "deny_message": true}
	if len(h.AlwaysScope) > 0 {
		p["always_scope"] = h.AlwaysScope
	}
	if h.Plan != "" {
		p["plan"] = h.Plan
	}
	for k, v := range p {
		if s, ok := v.(string); (ok && s == "") || !known[k] {
			delete(p, k)
		}
	}
	say("holding for the Inbox: %s", h.Summary)
	var res struct {
		RequestID string `json:"request_id"`
		Decision  string `json:"decision"`
		Reason    string `json:"reason"`
		Message   string `json:"message"`
	}
	if err := c.Call("request-approval", p, &res); err != nil {
		say("not held: %v", err)
		return
	}
	line := h.Reply(res.Decision, res.Message)
	say("hold %s ended after %s: decision %q, reason %s", res.RequestID, time.Since(start).Round(time.Millisecond), res.Decision, res.Reason)
	if line == "" {
		return // the harness asks in its pane
	}
	fmt.Fprintln(ctx.Stdout, line)
}
