package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// call runs one protocol verb against the daemon (starting one if none
// answers) and decodes the result. Daemon errors keep their code and hint;
// no reachable daemon exits 3. A target that names another host runs there
// (remote.go); callCtx also says on stderr which host answered. params is
// the verb's params type of internal/proto (proto.NewSessionParams...),
// or a map for a verb whose params have no type there yet.
func call(verb string, params any, result any) error {
	return callCtx(nil, verb, params, result)
}

func dialError(err error) error {
	var nd *client.NoDaemonError
	if errors.As(err, &nd) {
		return &Error{Code: "no_daemon", Message: nd.Error(), Hint: nd.Hint(), Exit: ExitNoDaemon}
	}
	e := &Error{Code: "no_daemon", Message: err.Error(), Exit: ExitNoDaemon}
	if code, hint, ok := proto.CodeOf(err); ok {
		e.Code, e.Hint = code, hint
	}
	return e
}

// protoError turns a daemon error into a CLI error with a readable hint.
func protoError(err error) error {
	var pe *proto.Error
	if !errors.As(err, &pe) {
		return err
	}
	e := &Error{Code: pe.Code, Message: pe.Message}
	if h := pe.Hint; h != nil {
		var parts []string
		if h.DidYouMean != "" {
			parts = append(parts, fmt.Sprintf("did you mean %q?", h.DidYouMean))
		}
		if len(h.Accepted) > 0 {
			parts = append(parts, "accepted: "+strings.Join(h.Accepted, ", "))
		}
		if len(h.Available) > 0 {
			parts = append(parts, "available: "+strings.Join(h.Available, "; "))
		}
		if h.Detail != "" {
			parts = append(parts, h.Detail)
		}
		if pe.Code == proto.CodeInvalidParams {
			// Which flag or argument it is, only the verb knows: Main
			// says it (speakFlags, args.go).
			e.Param, e.Problem, e.Ranged = h.Param, h.Problem, h.Range != ""
		}
		if h.Command != "" {
			parts = append(parts, "try: "+h.Command)
		}
		e.Hint = strings.Join(parts, "; ")
	}
	return e
}

// target flags shared by most verbs. HOST:SESSION and HOST:SESSION:WINDOW
// (or --host) run the verb on another machine (remote.go).
func targetFlags(fs *FlagSet) {
	fs.StringP("session", "s", "", "the session, or HOST:SESSION on a linked host (default: your own pane's, else the most recently active)")
	fs.StringP("window", "w", "", "the window: id, index, unique id prefix or name, or HOST:SESSION:WINDOW (default: your own pane, else the focused one)")
	hostFlag(fs)
}

func jsonFlag(fs *FlagSet) { fs.Bool("json", false, "print JSON") }

func str(ctx *Context, name string) string {
	v, _ := ctx.Flags.GetString(name)
	return v
}

func flagBool(ctx *Context, name string) bool {
	v, _ := ctx.Flags.GetBool(name)
	return v
}

func flagInt(ctx *Context, name string) int {
	v, _ := ctx.Flags.GetInt(name)
	return v
}

// params builds a params object from flags, leaving out empty values.
func params(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		switch v := kv[i+1].(type) {
		case string:
			if v != "" {
				m[k] = v
			}
		case int:
			if v != 0 {
				m[k] = v
			}
		case bool:
			if v {
				m[k] = v
			}
		case []string:
			if len(v) > 0 {
				m[k] = v
			}
		default:
			if v != nil {
				m[k] = v
			}
		}
	}
	return m
}

func printJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// nonceFlag is --human-nonce, which the attached client passes on the
// person's acts; a script leaves it out.
func nonceFlag(fs *FlagSet) {
	fs.String("human-nonce", "", "the nonce an attached client holds (scripts: leave empty)")
}

// callResult runs verb and decodes its result into res, a result type
// of internal/proto. With --json it prints the result as it came instead
// (every field: a newer daemon's, and the host and untrusted a linked
// host's answer carries) and says printed.
func callResult(ctx *Context, verb string, p any, res any) (printed bool, err error) {
	var raw json.RawMessage
	if err := callCtx(ctx, verb, p, &raw); err != nil {
		return false, err
	}
	if flagBool(ctx, "json") {
		return true, printAnswer(ctx.Stdout, raw)
	}
	return false, decodeAnswer(verb, raw, res)
}

// decodeAnswer decodes verb's result into res.
func decodeAnswer(verb string, raw json.RawMessage, res any) error {
	if err := json.Unmarshal(raw, res); err != nil {
		return &Error{Code: "internal", Message: fmt.Sprintf("%s answered a result this tuios cannot read: %v", verb, err),
			Hint: "the daemon may run another tuios version: tuios version says both"}
	}
	return nil
}

// printAnswer prints a result as printJSON prints a decoded one (keys
// sorted), its numbers exactly as they came.
func printAnswer(w io.Writer, raw json.RawMessage) error { return printAnswerEdited(w, raw, nil) }

// printAnswerEdited is printAnswer with the document changed by edit
// first (a field the CLI adds or drops); edit is not called for a result
// that is not an object.
func printAnswerEdited(w io.Writer, raw json.RawMessage, edit func(doc map[string]any)) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if doc, ok := v.(map[string]any); ok && edit != nil {
		edit(doc)
	}
	return printJSON(w, v)
}

// printRawJSON prints a JSON document as printJSON would lay it out,
// without decoding it.
func printRawJSON(w io.Writer, raw json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}

// windowArg lets a verb take its window as -w or as the first argument.
func windowArg(ctx *Context) string {
	if w := str(ctx, "window"); w != "" {
		return w
	}
	if len(ctx.Args) > 0 {
		return ctx.Args[0]
	}
	return ""
}

// remarshal decodes a generic result into a typed view of it.
func remarshal(from any, to any) {
	b, _ := json.Marshal(from)
	json.Unmarshal(b, to)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
