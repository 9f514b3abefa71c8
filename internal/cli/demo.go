package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/daemon"
	"github.com/tuios/tuios/internal/proto"
)

func demoCommands() []Command {
	return []Command{{
		Name: "demo", Summary: "watch tuios track a pretend agent through a permission prompt", Usage: "",
		Help:    "Starts a private daemon in a temporary directory, opens a session with a pretend coding agent in a pane, and prints each change of the pane's agent state as the agent works, stops on a permission prompt, is answered by the demo, and finishes. Then it prints the list-agents table and cleans up. No network and no configuration.",
		Example: "go run ./cmd/tuios demo",
		Run:     runDemo,
	}}
}

func runDemo(ctx *Context) error {
	out := ctx.Stdout
	dir, err := os.MkdirTemp("", "tuios-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	socket := filepath.Join(dir, "run", "tuios.sock")
	srv, err := daemon.New(daemon.Options{Socket: socket, Executable: self,
		Tracker: detect.TrackerOptions{DetectInterval: 500 * time.Millisecond}})
	if err != nil {
		return err
	}
	if err := srv.Listen(); err != nil {
		return err
	}
	runCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go srv.Serve(runCtx)
	defer srv.Close()

	events, err := client.Dial(client.Options{Socket: socket})
	if err != nil {
		return dialError(err)
	}
	defer events.Close()
	if err := events.Call("subscribe", proto.SubscribeParams{Types: []string{"agent-state"}}, nil); err != nil {
		return protoError(err)
	}
	ctl, err := client.Dial(client.Options{Socket: socket})
	if err != nil {
		return dialError(err)
	}
	defer ctl.Close()

	fmt.Fprintf(out, "tuios demo: a private daemon on %s\n", socket)
	fmt.Fprintf(out, "Starting a pretend coding agent (it says it is claude-code) in session \"demo\".\n\n")
	var created proto.SessionCreated
	argv := []string{self, "pretend-agent", "-steps", "10", "-step", "250ms", "-task", "tidy the build directory"}
	if err := ctl.Call("new-session", proto.NewSessionParams{Name: "demo", WindowName: "agent", Argv: argv, Cols: 100, Rows: 30}, &created); err != nil {
		return protoError(err)
	}
	start := time.Now()
	fmt.Fprintf(out, "  %-7s %-2s %-12s %-11s %s\n", "TIME", "", "STATE", "SOURCE", "MESSAGE")

	type ev struct {
		Type, Window, State, Source, Message string
	}
	evc := make(chan ev, 64)
	go func() {
		defer close(evc)
		for {
			var e ev
			if events.Next(&e) != nil {
				return
			}
			if e.Type == "agent-state" {
				evc <- e
			}
		}
	}()
	// The demo also plays the agent's hooks (as Claude Code's would): it
	// reports working once the agent is up and done when it finishes. The
	// screen then has to see the prompt over a claim the hook made.
	hook := func(state, msg string) error {
		fmt.Fprintf(out, "          (the agent's hook reports: %s)\n", state)
		var res proto.AgentStateSet
		if err := ctl.Call("set-agent-state", proto.SetAgentStateParams{Window: created.WindowID, State: state, Message: msg, Harness: "claude-code"}, &res); err != nil {
			return protoError(err)
		}
		if res.State == state && state == "working" {
			// Same state, new owner: no state change event, so show it here.
			st, _ := agentstate.ParseState(res.State)
			fmt.Fprintf(out, "  %6.1fs %-2s %-12s %-11s %s\n", time.Since(start).Seconds(), st.Glyph(false), res.State, res.Source, fence(res.Message))
		}
		return nil
	}
	finished := make(chan error, 1)
	hooked, answered := false, false
	for {
		select {
		case <-runCtx.Done():
			return &Error{Code: "timeout", Message: "the demo did not finish in 20 s", Hint: "run it again; a loaded machine can be slow"}
		case err := <-finished:
			if err != nil {
				return protoError(err)
			}
			if err := hook("done", "Done: tidy the build directory."); err != nil {
				return err
			}
		case e, ok := <-evc:
			if !ok {
				return &Error{Code: "internal", Message: "the daemon's event stream ended early"}
			}
			st, _ := agentstate.ParseState(e.State)
			fmt.Fprintf(out, "  %6.1fs %-2s %-12s %-11s %s\n", time.Since(start).Seconds(), st.Glyph(false), e.State, e.Source, fence(e.Message))
			switch {
			case st == agentstate.Working && !hooked:
				hooked = true
				if err := hook("working", "tidying the build directory"); err != nil {
					return err
				}
			case st == agentstate.NeedsInput && !answered:
				answered = true
				fmt.Fprintf(out, "          (the person answers the prompt: the demo types 1)\n")
				if err := ctl.Call("send-text", proto.SendTextParams{Window: created.WindowID, Text: "1"}, nil); err != nil {
					return protoError(err)
				}
				// The agent's Stop hook fires when its turn ends.
				go func() {
					w, err := client.Dial(client.Options{Socket: socket})
					if err != nil {
						finished <- err
						return
					}
					defer w.Close()
					finished <- w.Call("wait-for", proto.WaitParams{Window: created.WindowID, Condition: "window-output", Pattern: "Done: tidy", Timeout: 15000}, nil)
				}()
			case st == agentstate.Done && answered:
				fmt.Fprintln(out)
				var res proto.AgentList
				if err := ctl.Call("list-agents", proto.ListAgentsParams{Session: "demo"}, &res); err != nil {
					return protoError(err)
				}
				WriteAgents(out, res.Agents, false)
				fmt.Fprintf(out, "\nDone in %.1fs. The daemon, its pane and %s are gone.\n", time.Since(start).Seconds(), dir)
				return nil
			}
		}
	}
}

// fence prints pane text as data: control characters escaped.
func fence(s string) string {
	if s == "" {
		return ""
	}
	return "\"" + escapeControls(s) + "\""
}
