package rpc

import (
	"encoding/json"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// A param error a handler wrote as text still carries its problem in the
// hint, so the CLI words it without reading the message.
func TestParamProblemFromAHandlersText(t *testing.T) {
	t.Parallel()
	e := paramProblem(proto.Errorf(proto.CodeInvalidParams, "the param %q keeps mail for another machine", "queue").WithHint(proto.Hint{Param: "queue"}))
	if e.Hint.Problem != "keeps mail for another machine" {
		t.Fatalf("problem %q", e.Hint.Problem)
	}
	other := proto.Errorf(proto.CodeInvalidParams, "unknown action %q", "x").WithHint(proto.Hint{Param: "action"})
	if paramProblem(other).Hint.Problem != "" {
		t.Fatal("a message that does not start with the param got a problem")
	}
	if paramProblem(nil) != nil {
		t.Fatal("no error became one")
	}
}

type pingParams struct {
	Count int    `json:"count" desc:"how many" min:"1" max:"3" default:"1"`
	Name  string `json:"name" desc:"who" req:"true" maxlen:"8"`
}

// Handle's run decodes strictly and checks the tags before the handler
// runs: an unknown param, a missing required one and a number out of
// bounds never reach it; a handler's own text error gets its problem.
func TestHandleChecksParamsFirst(t *testing.T) {
	t.Parallel()
	ran := 0
	params, run := Handle(func(caller string, p *pingParams) (any, *proto.Error) {
		ran++
		if p.Name == "bad" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "the param %q is not welcome", "name").WithHint(proto.Hint{Param: "name"})
		}
		return caller + ":" + p.Name, nil
	})
	if _, ok := params.(*pingParams); !ok {
		t.Fatalf("params is %T, want *pingParams", params)
	}
	for _, raw := range []string{`{"name":"a","extra":1}`, `{"count":2}`, `{"name":"a","count":9}`, `{"name":"toolongname"}`} {
		if _, err := run("me", json.RawMessage(raw)); err == nil || err.Code != proto.CodeInvalidParams {
			t.Errorf("%s: %+v, want invalid_params", raw, err)
		}
	}
	if ran != 0 {
		t.Fatalf("the handler ran %d times for refused params", ran)
	}
	if res, err := run("me", json.RawMessage(`{"name":"a"}`)); err != nil || res != "me:a" {
		t.Fatalf("a good call: %v, %+v", res, err)
	}
	if _, err := run("me", json.RawMessage(`{"name":"bad"}`)); err == nil || err.Hint.Problem != "is not welcome" {
		t.Fatalf("the handler's error: %+v", err)
	}
}
