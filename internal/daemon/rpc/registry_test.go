package rpc

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

type echoParams struct {
	Text string `json:"text,omitempty" req:"true"`
}

func echoRegistry() *Registry[string] {
	r := NewRegistry[string]()
	p, run := Handle(func(caller string, p *echoParams) (any, *proto.Error) { return caller + ": " + p.Text, nil })
	r.Add(Verb[string]{Name: "echo", Access: Reads, Desc: "Say it back", Returns: "text", Example: `{"verb":"echo","params":{"text":"hi"}}`, Params: p, Run: run})
	r.Add(Verb[string]{Name: "kill-server", Access: Administers, Desc: "Stop", Returns: "server_killed", Params: new(struct{}),
		Run: func(string, json.RawMessage) (any, *proto.Error) { return nil, nil }})
	return r
}

// The registry finds a verb by name, runs it with the caller it is
// given, names every verb sorted, and suggests the nearest for a typo.
func TestRegistryLookupRunNames(t *testing.T) {
	t.Parallel()
	r := echoRegistry()
	v := r.Lookup("echo")
	if v == nil || r.Lookup("ech") != nil {
		t.Fatal("lookup")
	}
	res, err := v.Run("pane 3", json.RawMessage(`{"text":"hi"}`))
	if err != nil || res != "pane 3: hi" {
		t.Fatalf("run: %v %+v", res, err)
	}
	if _, err := v.Run("pane 3", json.RawMessage(`{}`)); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("a missing required param: %+v", err)
	}
	if got := r.Names(); !slices.Equal(got, []string{"echo", "kill-server"}) {
		t.Fatalf("names %v", got)
	}
	if got := r.Nearest("ehco"); got != "echo" {
		t.Fatalf("nearest %q", got)
	}
}

// List describes every verb with its access, and the error codes; one
// verb alone without them; an unknown one is invalid_params with the
// nearest name.
func TestRegistryList(t *testing.T) {
	t.Parallel()
	r := echoRegistry()
	all, err := r.List("")
	if err != nil || len(all.Verbs) != 2 || len(all.ErrorCodes) == 0 || all.Type != "verb_list" {
		t.Fatalf("all: %+v %+v", all, err)
	}
	echo := all.Verbs[0]
	if echo.Verb != "echo" || echo.Access.Caller != "granted" || !slices.Equal(echo.Access.Grants, []string{"read"}) ||
		!echo.Access.ReadOnly || !slices.Equal(echo.Access.Link, []string{"list"}) || len(echo.Examples) != 1 {
		t.Fatalf("echo: %+v %+v", echo, echo.Access)
	}
	if kill := all.Verbs[1]; !kill.Access.Local || len(kill.Access.Link) != 0 || kill.Access.ReadOnly || kill.Examples != nil {
		t.Fatalf("kill-server: %+v %+v", kill, kill.Access)
	}
	one, err := r.List("echo")
	if err != nil || len(one.Verbs) != 1 || one.ErrorCodes != nil {
		t.Fatalf("one: %+v %+v", one, err)
	}
	if _, err := r.List("eho"); err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil || err.Hint.DidYouMean != "echo" {
		t.Fatalf("unknown: %+v", err)
	}
}

// A feature class the registry does not know declares nothing, so its
// verb is refused to everyone; the known ones keep their link needs.
func TestClassAccess(t *testing.T) {
	t.Parallel()
	if a := ClassAccess(core.Class(9999)); a.Declared() || a.OverLink() || a.Info().Caller != "nobody" {
		t.Fatalf("an unknown class is declared: %#x", a)
	}
	if a := ClassAccess(core.PersonLocal); a.Who() != WhoPerson || a.OverLink() {
		t.Fatalf("person-local: %#x", a)
	}
	if a := ClassAccess(core.TypesCommand); !a.Types() || a.Link() != core.CapOpen {
		t.Fatalf("types-command: %#x", a)
	}
	if a := ClassAccess(core.MarksMailRead); a.ChangesNothing() || !ClassAccess(core.ReadsMail).ChangesNothing() {
		t.Fatal("marking mail read is a change; reading mail is not")
	}
	if (Reads | HoldsConn).Poolable() || !Reads.Poolable() || Administers.Poolable() {
		t.Fatal("poolable")
	}
}

func ExampleRegistry() {
	r := NewRegistry[string]()
	params, run := Handle(func(caller string, p *echoParams) (any, *proto.Error) { return caller + " said " + p.Text, nil })
	r.Add(Verb[string]{Name: "echo", Access: Reads, Desc: "Say it back", Params: params, Run: run})

	v := r.Lookup("echo")
	res, _ := v.Run("pane %3", json.RawMessage(`{"text":"hi"}`))
	fmt.Println(res, v.Access.Info().Caller, r.Nearest("ecko"))
	// Output: pane %3 said hi granted echo
}
