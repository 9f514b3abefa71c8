package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/push"
)

func notifyCommands() []Command {
	return []Command{
		{
			Name: "notify", Summary: "push notifications: Inbox items on your phone through ntfy, Pushover or a webhook",
			Help: "The daemon sends a notification when an Inbox item that waits for you opens (an approval, a plan, a question, an ask-human; " +
				"mail, errors and finished turns if [notify.triggers] asks), whether or not a client is attached. Configure [notify] in config.toml " +
				"(tuios --skill config), then run tuios config apply from a terminal outside tuios.",
			Example: "tuios notify test",
		},
		{
			Name: "notify test", Summary: "send a test notification through each provider of [notify] and say what happened", Usage: "[--json]",
			Help: "Reads [notify] from the config file and sends one test notification through each provider (ntfy, pushover, webhook) at once, " +
				"from this process, not from the daemon: a token_env is read from this shell's environment (the daemon reads its own). " +
				"Prints one line per provider, naming it by its host only (the rest of an address, such as an ntfy topic, is a secret), " +
				"and exits 1 when any failed. --json prints provider, host, ok and error for each.",
			Example: "tuios notify test\n" +
				"#   ntfy (ntfy.sh): sent.\n" +
				"#   webhook (hooks.example.com): failed. The server answered 401 Unauthorized. Check the token.\n" +
				"tuios notify test --json | jq -r '.results[] | select(.ok | not) | .provider'",
			Flags: jsonFlag,
			Run:   runNotifyTest,
		},
	}
}

// runNotifyTest is tuios notify test.
func runNotifyTest(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return usageError("tuios notify test [--json]", "notify test takes no arguments")
	}
	path := config.Path(os.Getenv)
	f, err := config.Load(path)
	if err != nil {
		return &Error{Code: "invalid_params", Message: err.Error(), Hint: "fix the file and run tuios notify test again"}
	}
	ps := f.PushSettings()
	for _, p := range ps.Problems {
		fmt.Fprintf(ctx.Stderr, "config: %s\n", escapeControls(p))
	}
	asJSON := flagBool(ctx, "json")
	if len(push.Providers(ps)) == 0 {
		if asJSON {
			printJSON(ctx.Stdout, map[string]any{"type": "notify_test", "path": path, "results": []push.Result{}})
		}
		return &Error{Code: "invalid_params", Message: "no push provider in [notify] of " + path,
			Hint: "add [notify.ntfy] url = \"https://ntfy.sh/A-LONG-RANDOM-TOPIC\" (or [notify.pushover], [notify.webhook]; tuios --skill config)"}
	}
	if !ps.Enabled {
		fmt.Fprintln(ctx.Stderr, "notify.enabled = false: the daemon sends nothing (this test sends anyway)")
	}
	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	host, _ := os.Hostname()
	results := push.Send(sig, ps, push.TestNotification(host, ps), push.SendOptions{Where: "this shell's environment"})
	failed := 0
	for _, r := range results {
		if !r.OK {
			failed++
		}
	}
	if asJSON {
		if err := printJSON(ctx.Stdout, map[string]any{"type": "notify_test", "path": path, "results": results}); err != nil {
			return err
		}
	} else {
		for _, r := range results {
			line := r.Provider + " (" + r.Host + "): sent."
			if !r.OK {
				line = r.Provider + " (" + r.Host + "): failed. " + sentence(r.Error)
			}
			fmt.Fprintln(ctx.Stdout, escapeControls(line))
		}
	}
	if failed > 0 {
		return &Error{Code: "command_failed", Message: fmt.Sprintf("%d of %d providers failed", failed, len(results)),
			Hint: "fix what the line says and run tuios notify test again; the daemon reads a changed [notify] on tuios config apply"}
	}
	return nil
}

// sentence is s with a capital first letter and a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	// A key name (notify.ntfy.token_env) keeps its case.
	if first, _, _ := strings.Cut(s, " "); !strings.ContainsAny(first, "._:") {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
