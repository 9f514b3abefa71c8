package proto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseRequest(t *testing.T) {
	req, err := ParseRequest([]byte(`{"id":7,"verb":"hello","params":{"client":"x"}}`))
	if err != nil || req.Verb != "hello" || string(req.ID) != "7" {
		t.Fatalf("%+v %v", req, err)
	}
	for in, code := range map[string]string{
		``:                          CodeInvalidRequest,
		`not json`:                  CodeInvalidRequest,
		`{"verb":`:                  CodeInvalidRequest,
		`{"id":1}`:                  CodeInvalidRequest,
		`{"verb":"x","bogus":1}`:    CodeInvalidRequest,
		`{"verb":"x"} {"verb":"y"}`: CodeInvalidRequest,
	} {
		if _, err := ParseRequest([]byte(in)); err == nil || err.Code != code {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestDecodeParamsRefusesUnknownParams(t *testing.T) {
	var p struct {
		Session string `json:"session"`
	}
	err := DecodeParams(json.RawMessage(`{"session":"a","sesion":"b"}`), &p)
	if err == nil || err.Code != CodeInvalidParams || err.Hint == nil || err.Hint.Param != "sesion" {
		t.Fatalf("%+v", err)
	}
	if err := DecodeParams(json.RawMessage(`{"session":3}`), &p); err == nil || err.Code != CodeInvalidParams {
		t.Fatalf("wrong type: %v", err)
	}
	if err := DecodeParams(nil, &p); err != nil {
		t.Fatal(err)
	}
}

func TestReadLineCapsAndRecovers(t *testing.T) {
	in := strings.Repeat("x", 100) + "\n" + `{"verb":"hello"}` + "\n"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	if _, err := ReadLine(r, 50); err != ErrLineTooLong {
		t.Fatalf("long line: %v", err)
	}
	line, err := ReadLine(r, 50)
	if err != nil || string(line) != `{"verb":"hello"}` {
		t.Fatalf("next line: %q %v", line, err)
	}
}

func TestEncodeEchoesTheID(t *testing.T) {
	var b bytes.Buffer
	Encode(&b, Response{ID: json.RawMessage(`"abc"`), Error: Errorf(CodeUnknownVerb, "no verb").WithHint(Hint{DidYouMean: "hello"})})
	if b.String() != `{"id":"abc","error":{"code":"unknown_verb","message":"no verb","hint":{"did_you_mean":"hello"}}}`+"\n" {
		t.Fatal(b.String())
	}
}

func FuzzParseRequest(f *testing.F) {
	f.Add([]byte(`{"id":1,"verb":"hello","params":{"a":[1,2,{"b":null}]}}`))
	f.Add([]byte(`{"verb":"x","params":"str"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := ParseRequest(line)
		if err == nil && req.Verb == "" {
			t.Fatal("a request without a verb was accepted")
		}
		var p struct {
			Session string   `json:"session"`
			Lines   int      `json:"lines"`
			Until   []string `json:"until"`
		}
		DecodeParams(req.Params, &p)
		r := bufio.NewReaderSize(bytes.NewReader(line), 16)
		for i := 0; i < 100; i++ {
			if _, err := ReadLine(r, 64); err != nil && err != ErrLineTooLong {
				break
			}
		}
	})
}
