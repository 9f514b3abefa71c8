package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// optionsCommands are set-config, get-config, list-options and
// list-themes: the config file's settable keys, through the daemon (the
// set-option, get-option, list-options and list-themes verbs), so the
// daemon refuses what a pane or another machine may not set.
func optionsCommands() []Command {
	return []Command{{
		Name: "set-config", Summary: "set one key of the config file, keeping every other line and comment",
		Usage: "KEY VALUE [--json]",
		Help: "Changes the key's one line in ~/.config/tuios/config.toml (or $XDG_CONFIG_HOME/tuios/config.toml), or adds it under its table, " +
			"and keeps every other byte of the file, comments included. The value is read as the key's type: true or false (on, off, yes, no), " +
			"a number within the key's range, or one of its words; tuios list-options lists the keys. " +
			"[notifications.agent] and [ui] are read by the attach client when it attaches: a client attached now picks the change up when you " +
			"detach and attach again. [daemon] keys apply when the daemon starts next. " +
			"Not set this way, only by editing the file: [agents], [hosts], [tailscale], [hooks], [keybindings], [dock], [notify] and " +
			"respond_from_shell (they decide what may act here). agents.enabled and notifications.agent.command are refused from inside a pane. " +
			"A negative number goes after --: tuios set-config daemon.agent_detect_seconds -- -1.",
		Example: "tuios set-config notifications.agent.sound true\ntuios set-config notifications.agent.sound_mode bell\ntuios set-config notifications.agent.quiet_hours 22:00-07:00\ntuios set-config ui.rail right --json",
		Flags:   jsonFlag,
		Run: func(ctx *Context) error {
			if len(ctx.Args) != 2 {
				return usageError("tuios set-config KEY VALUE, such as tuios set-config notifications.agent.sound true; tuios list-options lists the keys",
					"set-config needs a key and a value")
			}
			var res proto.OptionSet
			if printed, err := callResult(ctx, "set-config", proto.SetOptionParams{Key: ctx.Args[0], Value: jsonString(ctx.Args[1])}, &res); printed || err != nil {
				return err
			}
			if !res.Changed {
				fmt.Fprintf(ctx.Stdout, "%s is already %s in %s; nothing was written.\n", res.Key, valueWord(res.Value), escapeControls(res.Path))
				return nil
			}
			fmt.Fprintf(ctx.Stdout, "%s = %s (was %s), in %s.\nIt applies %s.\n", res.Key, valueWord(res.Value), valueWord(res.Previous),
				escapeControls(res.Path), res.Applies)
			return nil
		},
	}, {
		Name: "get-config", Summary: "print one key of the config file (its default when the file leaves it unset)",
		Usage: "KEY [--json]",
		Help: "Prints the key's value as the config file has it now, or its default when the file leaves it unset. " +
			"--json adds the default, the type, what it accepts, whether the file sets it and when a change applies; for a key the daemon reads " +
			"when it starts, running is what the running daemon uses. tuios list-options lists the keys.",
		Example: "tuios get-config notifications.agent.sound\ntuios get-config daemon.resume_agents --json",
		Flags:   jsonFlag,
		Run: func(ctx *Context) error {
			if len(ctx.Args) != 1 {
				return usageError("tuios get-config KEY, such as tuios get-config notifications.agent.sound; tuios list-options lists the keys",
					"get-config needs a key")
			}
			var res proto.OptionResult
			if printed, err := callResult(ctx, "get-option", proto.GetOptionParams{Key: ctx.Args[0]}, &res); printed || err != nil {
				return err
			}
			fmt.Fprintln(ctx.Stdout, valueWord(res.Option.Value))
			return nil
		},
	}, {
		Name: "list-options", Summary: "list the config keys set-config may set, with their values and defaults",
		Usage: "[PREFIX] [--json]",
		Help: "Lists each key set-config may set: its value in the config file (* when the file sets it), its default, its type and " +
			"when a change applies. A PREFIX keeps the keys that start with it. The tables that decide what may act here ([agents], [hosts], " +
			"[notify], [keybindings] and the rest) are not listed: edit the file for those.",
		Example: "tuios list-options\ntuios list-options notifications.agent\ntuios list-options --json",
		Flags:   jsonFlag,
		Run: func(ctx *Context) error {
			prefix := ""
			if len(ctx.Args) > 0 {
				prefix = ctx.Args[0]
			}
			var res proto.OptionList
			if printed, err := callResult(ctx, "list-options", proto.ListOptionsParams{Prefix: prefix}, &res); printed || err != nil {
				return err
			}
			if len(res.Options) == 0 {
				fmt.Fprintf(ctx.Stdout, "No option starts with %q.\n", escapeControls(prefix))
				return nil
			}
			rows := [][]string{{"KEY", "VALUE", "DEFAULT", "TYPE", "APPLIES"}}
			for _, o := range res.Options {
				v := valueWord(o.Value)
				if o.Set {
					v += " *"
				}
				if o.Pending {
					v += " (running: " + valueWord(o.Running) + ")"
				}
				typ := o.Type
				if len(o.Accepted) > 0 {
					typ = strings.Join(o.Accepted, "|")
				}
				applies := "attach"
				if o.ReadBy == "daemon" {
					applies = "daemon start"
				}
				rows = append(rows, []string{o.Key, v, valueWord(o.Default), typ, applies})
			}
			w := colWidths(rows)
			for _, r := range rows {
				fmt.Fprintf(ctx.Stdout, "%-*s  %-*s  %-*s  %-*s  %s\n", w[0], r[0], w[1], r[1], w[2], r[2], w[3], r[3], r[4])
			}
			fmt.Fprintf(ctx.Stdout, "\n* the file sets it: %s\n", escapeControls(res.Path))
			return nil
		},
	}, {
		Name: "list-themes", Summary: "list the attach client's themes",
		Usage: "[--json]",
		Help: "The attach client has one theme, built in: it draws with your terminal's own colours, so the terminal's theme is the one to change. " +
			"There is no theme setting yet.",
		Example: "tuios list-themes\ntuios list-themes --json",
		Flags:   jsonFlag,
		Run: func(ctx *Context) error {
			var res proto.ThemeList
			if printed, err := callResult(ctx, "list-themes", nil, &res); printed || err != nil {
				return err
			}
			for _, t := range res.Themes {
				mark := " "
				if t.Current {
					mark = "*"
				}
				fmt.Fprintf(ctx.Stdout, "%s %s  %s\n", mark, escapeControls(t.Name), escapeControls(t.Description))
			}
			if res.Note != "" {
				fmt.Fprintf(ctx.Stdout, "\n%s.\n", escapeControls(upperFirst(res.Note)))
			}
			return nil
		},
	}}
}

// valueWord is an option's value as a person types it: true, 5, bell,
// "" for empty text.
func valueWord(v any) string {
	switch v := v.(type) {
	case nil:
		return "-"
	case string:
		if v == "" {
			return `""`
		}
		return escapeControls(v)
	case float64, bool:
		return fmt.Sprint(v)
	}
	b, _ := json.Marshal(v)
	return escapeControls(string(b))
}

// jsonString is s as a JSON string: set-config's value as the person typed
// it (the daemon reads it as the key's type).
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
