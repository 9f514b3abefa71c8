package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/paramtest"
	"github.com/tuios/tuios/internal/proto"
)

// clientParams is every params type of internal/proto the client sends,
// by name, so the test can make one from the type the sources pass.
var clientParams = map[string]any{}

func init() {
	for _, v := range []any{
		proto.AttachParams{}, proto.AttachInputParams{}, proto.AttachTypedParams{}, proto.ResizeParams{},
		proto.WindowParams{}, proto.NewWindowParams{}, proto.SelectWorkspaceParams{}, proto.RunCommandParams{},
		proto.FocusWindowParams{}, proto.SetWindowParams{}, proto.SplitWindowParams{},
		proto.SendTextParams{}, proto.CaptureParams{}, proto.OpenHostParams{},
		proto.PeekPromptParams{}, proto.RespondParams{},
		proto.ListOptionsParams{}, proto.SetOptionParams{},
		proto.ReadMessagesParams{}, proto.SendMessageParams{}, proto.ReleaseMessageParams{},
		proto.CompareFanParams{}, proto.VerifyFanParams{}, proto.KeepFanParams{},
		proto.ListAttentionParams{}, proto.DismissAttentionParams{}, proto.MarkAttentionParams{},
		proto.ReplyApprovalParams{}, proto.GetApprovalParams{}, proto.AnswerAskParams{},
		proto.QueuePromptParams{}, proto.ListQueuedParams{}, proto.CancelQueuedParams{},
		proto.ResumeAgentParams{}, proto.ReviewDiffParams{}, proto.ReviewNoteParams{}, proto.SendReviewParams{},
		proto.AgentActivityParams{}, proto.NewSessionParams{},
	} {
		clientParams[reflect.TypeOf(v).Name()] = v
	}
}

// sent is one call in the client's sources: the verb, and the name of
// the proto type its params are ("" for none: nil).
type sent struct {
	verb, typ, at string
}

// clientCalls type-checks the client's sources (not its tests) and
// returns every call they make: m.call, conns.Call, client.Call and a
// request built for the call line. A call whose params are anything but a
// params type of internal/proto, or nil, is an error: the daemon's
// decoder is strict, and a map says nothing about what it accepts.
func clientCalls(t *testing.T) []sent {
	t.Helper()
	exports := exportData(t)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range strings.Fields(goList(t, "-f", `{{join .GoFiles " "}}`, ".")) { // this platform's files
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := conf.Check("github.com/tuios/tuios/internal/tui", fset, files, info); err != nil {
		t.Fatal(err)
	}
	var out []sent
	add := func(at token.Pos, verb, params ast.Expr) {
		pos := fset.Position(at).String()
		tv := info.Types[verb]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return // a verb passed on (conns.Call's own request): checked where it is named
		}
		v := constant.StringVal(tv.Value)
		pt := info.Types[params]
		if pt.IsNil() {
			out = append(out, sent{v, "", pos})
			return
		}
		typ := pt.Type
		if p, ok := typ.(*types.Pointer); ok {
			typ = p.Elem()
		}
		named, ok := typ.(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "github.com/tuios/tuios/internal/proto" {
			t.Errorf("%s: %s is sent with params of type %s, not a params type of internal/proto", pos, v, pt.Type)
			return
		}
		out = append(out, sent{v, named.Obj().Name(), pos})
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if ok && (sel.Sel.Name == "call" || sel.Sel.Name == "Call") && len(n.Args) == 3 {
					add(n.Pos(), n.Args[0], n.Args[1])
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "request" {
					var verb, params ast.Expr
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							switch kv.Key.(*ast.Ident).Name {
							case "verb":
								verb = kv.Value
							case "params":
								params = kv.Value
							}
						}
					}
					if verb != nil && params != nil {
						add(n.Pos(), verb, params)
					}
				}
			}
			return true
		})
	}
	return out
}

// exportData is the compiled export data of the client's dependencies,
// by import path, as go list finds it in the build cache.
func exportData(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(goList(t, "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}", "."), "\n") {
		if path, file, ok := strings.Cut(line, " "); ok && file != "" {
			out[path] = file
		}
	}
	return out
}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.Bytes())
	}
	return strings.TrimSpace(string(b))
}

// TestParamsClientSendsWhatTheDaemonDecodes: every call the attach
// client makes goes with a params type of internal/proto (or none), the
// type is the one the daemon declares for the verb (list-verbs describes
// the same params), and a value with every field set goes through JSON as
// the client sends it and comes out of the daemon's decoding (strict:
// unknown params refused) and checks equal. Its zero value sends nothing
// (a far daemon of another version is sent no param it may not know).
func TestParamsClientSendsWhatTheDaemonDecodes(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package and runs a daemon")
	}
	calls := clientCalls(t)
	listed := paramtest.ListVerbs(t)
	verbs := map[string]bool{}
	checked := map[string]bool{}
	for _, c := range calls {
		verbs[c.verb] = true
		want, ok := listed[c.verb]
		if !ok {
			t.Errorf("%s: the client sends %q, which the daemon does not serve", c.at, c.verb)
			continue
		}
		if c.typ == "" || checked[c.verb+" "+c.typ] {
			continue
		}
		checked[c.verb+" "+c.typ] = true
		zero, ok := clientParams[c.typ]
		if !ok {
			t.Errorf("%s: proto.%s is missing from clientParams", c.at, c.typ)
			continue
		}
		if got := paramtest.SchemaAsListed(t, zero); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the client sends %s with proto.%s, but the daemon's params are another type:\n client %+v\n daemon %+v", c.at, c.verb, c.typ, got, want)
			continue
		}
		if b, _ := json.Marshal(zero); string(b) != "{}" {
			t.Errorf("%s: an empty proto.%s sends %s", c.verb, c.typ, b)
		}
		full := reflect.New(reflect.TypeOf(zero)).Elem()
		paramtest.Fill(full)
		wire, err := json.Marshal(full.Interface())
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(full.Type())
		if perr := proto.DecodeParams(wire, back.Interface()); perr != nil {
			t.Errorf("%s: the daemon refuses %s: %v", c.verb, wire, perr)
			continue
		}
		if perr := proto.Validate(back.Interface()); perr != nil {
			t.Errorf("%s: %s decodes but fails the checks: %v", c.verb, wire, perr)
		}
		if !reflect.DeepEqual(back.Elem().Interface(), full.Interface()) {
			t.Errorf("%s: sent %+v\n as %s\n decoded %+v", c.verb, full.Interface(), wire, back.Elem().Interface())
		}
	}
	if len(verbs) < 40 {
		names := make([]string, 0, len(verbs))
		for v := range verbs {
			names = append(names, v)
		}
		sort.Strings(names)
		t.Errorf("found %d verbs in the client's sources, want 40 or more: %v", len(verbs), names)
	}
}

// TestParamsOfFakeCalls: the model tests read a call's params by wire
// name; what they read is what the JSON carries.
func TestParamsOfFakeCalls(t *testing.T) {
	t.Parallel()
	empty := ""
	for _, c := range []struct {
		p    any
		want string
	}{
		{proto.SetWindowParams{Session: "work", Window: "w1", Name: &empty}, `{"session":"work","window":"w1","name":""}`},
		{proto.RespondParams{Session: "s", Window: "w", Action: "approve"}, `{"session":"s","window":"w","action":"approve"}`},
		{proto.VerifyFanParams{FanTargetParams: proto.FanTargetParams{Session: "s"}, Command: "true"}, `{"session":"s","command":"true"}`},
		{proto.SetOptionParams{Key: "k", Value: json.RawMessage(`true`)}, `{"key":"k","value":true}`},
	} {
		b, err := json.Marshal(c.p)
		if err != nil {
			t.Fatal(err)
		}
		var wire, want map[string]any
		json.Unmarshal(b, &wire)
		json.Unmarshal([]byte(c.want), &want)
		if !reflect.DeepEqual(wire, want) {
			t.Errorf("%T sends %s, want %s", c.p, b, c.want)
		}
		got := paramsOf(c.p)
		if len(got) != len(want) {
			t.Errorf("%T: paramsOf %v, the wire %s", c.p, got, b)
		}
		for k, v := range want {
			if fmt.Sprint(got[k]) != fmt.Sprint(v) {
				t.Errorf("%T: paramsOf[%s] = %v, the wire %v", c.p, k, got[k], v)
			}
		}
	}
}
