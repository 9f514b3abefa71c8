package cli

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/proto"
)

// flagsOf is a verb's flag set, as Main builds it.
func flagsOf(c *Command) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.Name, pflag.ContinueOnError)
	if c.Flags != nil {
		c.Flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	return fs
}

var flagWord = regexp.MustCompile(`(?:^|[\s(:;,'"])--([a-z][a-z0-9-]*)`)

// missingFlags lists the --flags text names that the verb does not have.
func missingFlags(fs *pflag.FlagSet, text string) []string {
	var out []string
	for _, m := range flagWord.FindAllStringSubmatch(text, -1) {
		if fs.Lookup(m[1]) == nil {
			out = append(out, "--"+m[1])
		}
	}
	return out
}

// Every verb says how many arguments it takes, so a word too many is
// caught for every verb, including the next one added.
func TestEveryVerbDeclaresItsArguments(t *testing.T) {
	specs := argSpecs()
	names := map[string]bool{}
	for _, c := range commands() {
		names[c.Name] = true
		if c.Run == nil || c.RawArgs {
			continue
		}
		spec, ok := specs[c.Name]
		if !ok {
			t.Errorf("%s: no entry in argSpecs (args.go)", c.Name)
			continue
		}
		if spec.window > 0 && flagsOf(&c).Lookup("window") == nil {
			t.Errorf("%s: a window argument but no -w", c.Name)
		}
	}
	for name := range specs {
		if !names[name] {
			t.Errorf("argSpecs names %q, which is no verb", name)
		}
	}
}

// The words errors use for daemon params name only flags the verb has.
func TestParamWordsNameRealFlags(t *testing.T) {
	table := commands()
	for verb, words := range paramWords() {
		cmd, rest := lookup(table, strings.Fields(verb))
		if cmd == nil || len(rest) > 0 || cmd.Name != verb {
			t.Errorf("paramWords names %q, which is no verb", verb)
			continue
		}
		fs := flagsOf(cmd)
		for param, w := range words {
			if miss := missingFlags(fs, w.name+" "+w.hint); len(miss) > 0 {
				t.Errorf("%s %s: names %v, which %s lacks", verb, param, miss, verb)
			}
		}
	}
}

// Whatever param the daemon complains about, the message and hint that
// reach the person name no flag the verb lacks: every verb against every
// shape of invalid_params the daemon sends (proto.Validate's messages).
func TestSpeakFlagsNeverNamesAMissingFlag(t *testing.T) {
	params := []string{"text", "keys", "workspace", "id", "for_ms", "value", "name", "window", "session", "request_id",
		"timeout", "state", "lines", "thread", "until", "kind", "human_nonce", "prompt_id", "risk_ack", "argv", "cwd"}
	for _, c := range commands() {
		if c.Run == nil {
			continue
		}
		fs := flagsOf(&c)
		for _, p := range params {
			for _, pe := range daemonParamErrors(p) {
				err := speakFlags(&c, fs, protoError(pe))
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%s %s: %v", c.Name, p, err)
				}
				if miss := missingFlags(fs, e.Message+"\n"+e.Hint); len(miss) > 0 {
					t.Errorf("%s, param %s: %q / %q names %v", c.Name, p, e.Message, e.Hint, miss)
				}
				if strings.Contains(e.Message, "the param") {
					t.Errorf("%s, param %s: %q still speaks of the protocol param", c.Name, p, e.Message)
				}
				if e.Hint == "" {
					t.Errorf("%s, param %s: no hint", c.Name, p)
				}
			}
		}
	}
	// The cases the audit found, word for word.
	for _, c := range []struct {
		verb     string
		in       *proto.Error
		wantMsg  string
		wantHint string
	}{
		{"send-text", proto.ParamError("text", "is required"), "the text is required", "give the text to send, or - to read it from standard input"},
		{"send-keys", proto.ParamError("keys", "is required"), "a key to press is required", "name the keys to press"},
		{"select-workspace", rangeError("workspace", 10, 1, 9), "the workspace is 10, out of range (1 to 9)", "give a workspace from 1 to 9"},
		{"mark-attention", rangeError("for_ms", 360000000000, 1, 31536000000), "--for is 360000000000", "--for is at most a year (8760h)"},
		{"dismiss-attention", proto.ParamError("id", "is required"), "the item id is required", "tuios list-attention"},
		{"respond", proto.ParamError("value", "is required"), "the answer is required", "option number from 1"},
		{"move-window", proto.ParamError("workspace", "is required"), "--workspace is required", "the flag is --workspace"},
	} {
		cmd, _ := lookup(commands(), strings.Fields(c.verb))
		err := speakFlags(cmd, flagsOf(cmd), protoError(c.in))
		e := err.(*Error)
		if !strings.Contains(e.Message, c.wantMsg) || !strings.Contains(e.Hint, c.wantHint) {
			t.Errorf("%s: %q / %q; want %q / %q", c.verb, e.Message, e.Hint, c.wantMsg, c.wantHint)
		}
	}
}

// daemonParamErrors are the shapes of invalid_params the daemon sends
// about param p, made by the daemon's own checks (proto.Validate).
func daemonParamErrors(p string) []*proto.Error {
	return []*proto.Error{proto.ParamError(p, "is required"), rangeError(p, 0, 1, 9),
		proto.ParamError(p, "is 9000 bytes, over the cap of 4096")}
}

// rangeError is proto.Validate's answer for an int param p of value n
// outside lo..hi.
func rangeError(p string, n, lo, hi int64) *proto.Error {
	f := reflect.StructOf([]reflect.StructField{{Name: "P", Type: reflect.TypeOf(int64(0)),
		Tag: reflect.StructTag(fmt.Sprintf(`json:%q min:"%d" max:"%d"`, p, lo, hi))}})
	v := reflect.New(f)
	v.Elem().Field(0).SetInt(n)
	if n == 0 { // 0 is absent to Validate: the message is the same shape
		v.Elem().Field(0).SetInt(hi + 1)
	}
	return proto.Validate(v.Interface())
}

func TestCheckArgs(t *testing.T) {
	table := commands()
	for _, c := range []struct {
		args []string
		want string // "" accepts
	}{
		{[]string{"close-window", "-s", "work", "ca"}, ""},
		{[]string{"close-window", "-s", "work", "ca", "cb"}, `unexpected argument "cb"`},
		{[]string{"focus-window", "runner", "build"}, `unexpected argument "build"`},
		{[]string{"get-window", "-w", "build", "runner"}, `unexpected argument "runner"`},
		{[]string{"get-window", "-w", ""}, "-w is empty: name a window, or leave -w out for the focused one"},
		{[]string{"get-window", ""}, "the window is empty"},
		{[]string{"send-text", "-w", "", "echo hi"}, "-w is empty"},
		{[]string{"session-info", "-s", ""}, "-s is empty: name a session"},
		{[]string{"list-windows", "--session="}, "-s is empty"},
		{[]string{"send-text", "-w", "build", "a", "b"}, ""},
		{[]string{"run-command", "CloseWindow", "build"}, ""},
		{[]string{"run-command", "-w", "build", "CloseWindow", "x"}, `unexpected argument "x"`},
		{[]string{"new-window", "build", "--", "htop", "-d", "5"}, ""},
		{[]string{"kill-server", "now"}, `unexpected argument "now"`},
		{[]string{"hosts", "frob"}, `unknown verb "hosts frob"`},
	} {
		cmd, rest := lookup(table, c.args)
		fs := flagsOf(cmd)
		if err := fs.Parse(rest); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		err := checkArgs(table, cmd, fs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// Any words after any verb: checkArgs never panics, and what it lets
// through fits the verb's declared count.
func FuzzCheckArgs(f *testing.F) {
	f.Add(uint8(0), "close-window\x00ca\x00cb")
	f.Add(uint8(3), "-w\x00\x00x")
	f.Add(uint8(7), "--session=\x00--\x00a")
	table := commands()
	f.Fuzz(func(t *testing.T, pick uint8, joined string) {
		cmd := &table[int(pick)%len(table)]
		if cmd.Run == nil || cmd.RawArgs {
			return
		}
		fs := flagsOf(cmd)
		fs.SetOutput(io.Discard)
		if fs.Parse(strings.Split(joined, "\x00")) != nil {
			return
		}
		if checkArgs(table, cmd, fs) != nil {
			return
		}
		spec := argSpecs()[cmd.Name]
		n := len(fs.Args())
		if w := fs.Lookup("window"); w != nil && w.Changed && w.Value.String() == "" {
			t.Fatalf("%s: -w '' let through", cmd.Name)
		}
		if spec.max >= 0 && n > spec.max {
			t.Fatalf("%s: %d arguments let through, takes %d", cmd.Name, n, spec.max)
		}
	})
}
