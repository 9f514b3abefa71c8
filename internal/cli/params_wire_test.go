package cli

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/paramtest"
	"github.com/tuios/tuios/internal/proto"
)

// protoParams is every params type of internal/proto the CLI builds, by
// name, so the test can make one from what the sources name.
var protoParams = map[string]any{}

func init() {
	for _, v := range []any{
		proto.HelloParams{}, proto.ListVerbsParams{}, proto.SubscribeParams{},
		proto.NewSessionParams{}, proto.SessionParams{}, proto.KillSessionParams{}, proto.SelectWorkspaceParams{},
		proto.SetSessionNameParams{}, proto.SetSessionAccentParams{}, proto.SetWorkspaceNameParams{}, proto.SetWorkspaceOrderParams{},
		proto.NewWindowParams{}, proto.WindowParams{}, proto.PopupParams{},
		proto.FocusWindowParams{}, proto.MoveWindowParams{}, proto.SetWindowParams{}, proto.RunCommandParams{}, proto.SplitWindowParams{}, proto.SetLayoutParams{},
		proto.CaptureParams{}, proto.SendTextParams{}, proto.SendKeysParams{}, proto.ScreenshotParams{},
		proto.SetAgentStateParams{}, proto.AgentParams{}, proto.ListAgentsParams{}, proto.ExplainScreenParams{}, proto.StartAgentParams{},
		proto.ReportActivityParams{}, proto.ResolvePaneParams{}, proto.SetAgentMetaParams{}, proto.SetAgentSessionParams{},
		proto.ListOptionsParams{}, proto.GetOptionParams{}, proto.SetOptionParams{},
		proto.PaneGrantsParams{}, proto.SetPaneGrantsParams{}, proto.RestrictParams{},
		proto.SendMessageParams{}, proto.ReadMessagesParams{}, proto.StashPutParams{}, proto.StashListParams{}, proto.StashGetParams{}, proto.AskAgentParams{},
		proto.LinkPeerParams{}, proto.ReleaseMessageParams{}, proto.OpenHostParams{},
		proto.FanParams{}, proto.CompareFanParams{}, proto.VerifyFanParams{}, proto.KeepFanParams{},
		proto.NewWorktreeParams{}, proto.ListWorktreesParams{}, proto.RemoveWorktreeParams{}, proto.PullWorktreeParams{},
		proto.CopyParams{}, proto.TransferIDsParams{}, proto.TransferWaitParams{}, proto.WaitParams{},
	} {
		protoParams[reflect.TypeOf(v).Name()] = v
	}
}

// sentParams reads the CLI's sources for the verbs it calls with a params
// type of internal/proto: a string literal naming the verb, then the
// params, as a composite literal or a variable one was assigned to. It
// returns verb -> type names (a verb may be sent from several places).
func sentParams(t *testing.T, served map[string][]proto.Param) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !senders[funcName(call.Fun)] {
				return true
			}
			verb := "" // the last argument so far that names a verb
			for _, arg := range call.Args {
				if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, _ := strconv.Unquote(lit.Value); served[s] != nil {
						verb = s
					}
					continue
				}
				// A verb named at run time (action+"-transfers") is not
				// checked here.
				if typ := paramsType(arg); typ != "" && verb != "" {
					out[verb] = append(out[verb], typ)
				}
			}
			return true
		})
	}
	return out
}

// senders are the functions that send a verb with its params.
var senders = map[string]bool{"call": true, "callCtx": true, "callResult": true, "callLocal": true, "callHost": true,
	"runAllHosts": true, "explain": true, "metaCall": true, "sendListed": true, "Call": true}

func funcName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr: // explain[proto.AgentDetect]
		return funcName(f.X)
	}
	return ""
}

// paramsType is the proto type an argument is built as: proto.X{...},
// &proto.X{...}, or a local variable assigned one.
func paramsType(e ast.Expr) string {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	if id, ok := e.(*ast.Ident); ok && id.Obj != nil {
		if as, ok := id.Obj.Decl.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			e = as.Rhs[0]
		}
	}
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 {
		if funcName(c.Fun) == "ParamMap" {
			return paramsType(c.Args[0])
		}
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	sel, ok := cl.Type.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "proto" || !strings.HasSuffix(sel.Sel.Name, "Params") {
		return ""
	}
	return sel.Sel.Name
}

// TestParamsCLISendsWhatTheDaemonDecodes: for every verb the CLI sends a
// params type to, the type is the one the daemon declares for the verb
// (list-verbs describes the same params), and a value with every field
// set goes through proto.ParamMap and JSON as the CLI sends it and comes out of
// the daemon's decoding (strict, unknown params refused) and checks equal.
func TestParamsCLISendsWhatTheDaemonDecodes(t *testing.T) {
	listed := paramtest.ListVerbs(t)
	sent := sentParams(t, listed)
	if len(sent) < 40 {
		t.Fatalf("found typed params for %d verbs in the CLI's sources, want 40 or more: %v", len(sent), sent)
	}
	verbs := make([]string, 0, len(sent))
	for v := range sent {
		verbs = append(verbs, v)
	}
	sort.Strings(verbs)
	for _, verb := range verbs {
		want, ok := listed[verb]
		if !ok {
			t.Errorf("the CLI sends params to %q, which the daemon does not serve", verb)
			continue
		}
		for _, typ := range sent[verb] {
			zero, ok := protoParams[typ]
			if !ok {
				t.Errorf("%s: proto.%s is missing from protoParams", verb, typ)
				continue
			}
			if got := paramtest.SchemaAsListed(t, zero); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the CLI sends proto.%s, but the daemon's params are another type:\n cli    %+v\n daemon %+v", verb, typ, got, want)
				continue
			}
			full := reflect.New(reflect.TypeOf(zero)).Elem()
			paramtest.Fill(full)
			wire, err := json.Marshal(proto.ParamMap(full.Interface()))
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(full.Type())
			if perr := proto.DecodeParams(wire, back.Interface()); perr != nil {
				t.Errorf("%s: the daemon refuses %s: %v", verb, wire, perr)
				continue
			}
			if perr := proto.Validate(back.Interface()); perr != nil {
				t.Errorf("%s: %s decodes but fails the checks: %v", verb, wire, perr)
			}
			if !reflect.DeepEqual(back.Elem().Interface(), full.Interface()) {
				t.Errorf("%s: sent %+v\n as %s\n decoded %+v", verb, full.Interface(), wire, back.Elem().Interface())
			}
			// A Go client that hands the struct to client.Call (the tui,
			// MCP) sends the same object.
			direct, _ := json.Marshal(full.Interface())
			if !sameJSON(t, direct, wire) {
				t.Errorf("%s: encoding/json sends %s, proto.ParamMap %s", verb, direct, wire)
			}
		}
	}
}

// TestParamMapLeavesOutWhatIsNotSet: an unset param is not sent (the
// daemon applies its default, a far daemon of another version is not sent
// a param it may not know), as params() does; a pointer set to an empty
// value is sent (an empty name clears it).
func TestParamMapLeavesOutWhatIsNotSet(t *testing.T) {
	for name, zero := range protoParams {
		if m := proto.ParamMap(zero); len(m) != 0 {
			t.Errorf("%s: an empty struct sends %v", name, m)
		}
		if b, _ := json.Marshal(zero); string(b) != "{}" {
			t.Errorf("%s: encoding/json sends %s for an empty struct (a json tag without omitempty?)", name, b)
		}
	}
	empty := ""
	m := proto.ParamMap(proto.SetWindowParams{Session: "work", Name: &empty})
	if v, ok := m["name"].(*string); !ok || *v != "" || len(m) != 2 || m["session"] != "work" {
		t.Errorf("set-window with an empty name sends %v, want session and the empty name", m)
	}
	m = proto.ParamMap(proto.SplitWindowParams{Percent: 30, Argv: []string{}, NoFocus: false})
	if !reflect.DeepEqual(m, map[string]any{"percent": 30}) {
		t.Errorf("split-window sends %v, want only percent (an empty argv and false are left out)", m)
	}
	m = proto.ParamMap(proto.VerifyFanParams{FanTargetParams: proto.FanTargetParams{Group: "fan/x"}, Command: "true"})
	if !reflect.DeepEqual(m, map[string]any{"group": "fan/x", "command": "true"}) {
		t.Errorf("verify-fan sends %v, want the embedded group flattened next to command", m)
	}
	if m := proto.ParamMap(nil); m != nil {
		t.Errorf("nil params send %v", m)
	}
	in := map[string]any{"session": "x:"}
	if m := proto.ParamMap(in); !reflect.DeepEqual(m, in) {
		t.Errorf("a map is changed: %v", m)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
