package proto

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/pty"
)

type testParams struct {
	Condition string   `json:"condition" req:"true" accepted:"window-output,window-idle"`
	Pattern   string   `json:"pattern" when:"condition=window-output"`
	Queue     int      `json:"queue" min:"1" max:"65536" default:"256"`
	Name      string   `json:"name" maxlen:"8"`
	States    []string `json:"states" accepted:"working,idle" maxlen:"2"`
	Flag      *bool    `json:"flag"`
	Source    string   `json:"source" accepted:"report,osc" check:"handler"`
	//lint:ignore U1000 an unexported field must be skipped by Schema and Validate
	ignored int
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		in, param, msg string
	}{
		{`{}`, "condition", "required"},
		{`{"condition":"window-output"}`, "pattern", `required when condition is "window-output"`},
		{`{"condition":"window-idel"}`, "condition", "unknown condition"},
		{`{"condition":"window-idle","queue":1152921504606846976}`, "queue", "out of range (1 to 65536)"},
		{`{"condition":"window-idle","queue":-1}`, "queue", "out of range"},
		{`{"condition":"window-idle","name":"far too long"}`, "name", "over the cap of 8"},
		{`{"condition":"window-idle","states":["working","idle","idle"]}`, "states", "over the cap of 2"},
		{`{"condition":"window-idle","states":["wrking"]}`, "states", "unknown states"},
	} {
		p := &testParams{}
		if err := DecodeParams(json.RawMessage(c.in), p); err != nil {
			t.Fatalf("%s: decode: %v", c.in, err)
		}
		err := Validate(p)
		if err == nil || err.Code != CodeInvalidParams || err.Hint == nil || err.Hint.Param != c.param || !strings.Contains(err.Message, c.msg) {
			t.Errorf("%s: got %+v, want invalid_params naming %q with %q", c.in, err, c.param, c.msg)
		}
	}
	for _, ok := range []string{
		`{"condition":"window-idle"}`,
		`{"condition":"window-output","pattern":"x","queue":65536,"name":"12345678","states":["idle"],"flag":false}`,
		`{"condition":"window-idle","source":"anything"}`, // the handler checks it
		`{"condition":"window-idle","queue":0}`,           // 0 is absent: the default
	} {
		p := &testParams{}
		if err := DecodeParams(json.RawMessage(ok), p); err != nil {
			t.Fatal(err)
		}
		if err := Validate(p); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	p := &testParams{}
	DecodeParams(json.RawMessage(`{"condition":"window-idel"}`), p)
	if err := Validate(p); err.Hint.DidYouMean != "window-idle" {
		t.Errorf("did_you_mean: %+v", err.Hint)
	}
}

func TestSchemaDescribesWhatValidateEnforces(t *testing.T) {
	s := Schema(&testParams{})
	by := map[string]Param{}
	for _, p := range s {
		by[p.Name] = p
	}
	if len(s) != 7 {
		t.Fatalf("want 7 params (unexported fields skipped), got %d: %+v", len(s), s)
	}
	if q := by["queue"]; q.Type != "int" || *q.Minimum != 1 || *q.Maximum != 65536 || q.Default != int64(256) {
		t.Errorf("queue: %+v", q)
	}
	if f := by["flag"]; f.Type != "bool" {
		t.Errorf("*bool must read as bool: %+v", f)
	}
	if c := by["condition"]; !c.Required || len(c.Accepted) != 2 {
		t.Errorf("condition: %+v", c)
	}
	if p := by["pattern"]; p.RequiredWhen["condition"][0] != "window-output" {
		t.Errorf("pattern: %+v", p)
	}
	if n := by["name"]; n.MaxLength != 8 {
		t.Errorf("name: %+v", n)
	}
	if st := by["states"]; st.Type != "[]string" || st.MaxLength != 2 {
		t.Errorf("states: %+v", st)
	}
}

func TestBudgetBoundsLinesAcrossReaders(t *testing.T) {
	b := NewBudget(100)
	long := strings.Repeat("x", 80) + "\n"
	r1 := bufio.NewReaderSize(strings.NewReader(long), 16)
	line, err := ReadLineWithin(r1, 1000, b)
	if err != nil || len(line) != 80 || b.Used() != 80 {
		t.Fatalf("first line: %d %v used %d", len(line), err, b.Used())
	}
	// A second reader cannot hold another 80 bytes while the first is held,
	// and its line is consumed so the connection can go on.
	r2 := bufio.NewReaderSize(strings.NewReader(long+"{}\n"), 16)
	if _, err := ReadLineWithin(r2, 1000, b); err != ErrBudget {
		t.Fatalf("over budget: %v", err)
	}
	if b.Used() != 80 {
		t.Fatalf("a refused line must hold nothing: used %d", b.Used())
	}
	if next, err := ReadLineWithin(r2, 1000, b); err != nil || string(next) != "{}" {
		t.Fatalf("the next line: %q %v", next, err)
	}
	b.Release(2)
	b.Release(len(line))
	if b.Used() != 0 {
		t.Fatalf("released: used %d", b.Used())
	}
	// EOF in the middle of a line gives its bytes back.
	r3 := bufio.NewReaderSize(strings.NewReader("partial"), 16)
	if l, err := ReadLineWithin(r3, 1000, b); err != nil || string(l) != "partial" {
		t.Fatalf("eof line: %q %v", l, err)
	}
	b.Release(len("partial"))
	if b.Used() != 0 {
		t.Fatalf("used %d", b.Used())
	}
}

func TestCodeOfFindsEveryPackagesCode(t *testing.T) {
	_, perr := pty.Start(pty.Options{Argv: []string{"no-such-command-xyz"}})
	_, serr := agentstate.ParseState("wroking")
	for _, c := range []struct {
		err  error
		code string
	}{
		{fmt.Errorf("starting: %w", perr), "command_not_found"},
		{errors.Join(errors.New("plain"), serr), "invalid_params"},
		{errors.New("plain"), ""},
	} {
		code, hint, ok := CodeOf(c.err)
		if code != c.code || ok != (c.code != "") || (ok && hint == "") {
			t.Errorf("CodeOf(%v) = %q, %q, %v; want %q", c.err, code, hint, ok, c.code)
		}
	}
}

// Every param error Validate makes says which param and what is wrong
// with it in its hint, the same words as its message: a client words it
// its own way (the CLI names the flag) without reading the message.
func TestValidateParamErrorsCarryTheProblem(t *testing.T) {
	for _, c := range []struct {
		p                      testParams
		param, problem, ranged string
	}{
		{testParams{}, "condition", "is required", ""},
		{testParams{Condition: "window-output"}, "pattern", `is required when condition is "window-output"`, ""},
		{testParams{Condition: "window-idle", Queue: 70000}, "queue", "is 70000, out of range (1 to 65536)", "1 to 65536"},
		{testParams{Condition: "window-idle", Name: "much too long"}, "name", "is 13 bytes, over the cap of 8", ""},
		{testParams{Condition: "window-idle", States: []string{"idle", "idle", "idle"}}, "states", "has 3 entries, over the cap of 2", ""},
	} {
		e := Validate(&c.p)
		if e == nil || e.Hint == nil {
			t.Fatalf("%+v: %v", c.p, e)
		}
		if e.Hint.Param != c.param || e.Hint.Problem != c.problem || e.Hint.Range != c.ranged {
			t.Errorf("%+v: hint %+v, want param %q problem %q range %q", c.p, *e.Hint, c.param, c.problem, c.ranged)
		}
		if want := fmt.Sprintf("the param %q %s", c.param, c.problem); e.Message != want {
			t.Errorf("message %q, want %q", e.Message, want)
		}
	}
}
