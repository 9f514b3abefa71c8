package jsonrpc

import (
	"bytes"
	"io"
	"testing"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"id":"a","result":null}`, `{"method":"turn/completed","params":{"turn":{}}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`, `{"id":{},"method":"x"}`, `nope`, `{"id":1e999,"result":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		switch m.Kind {
		case KindRequest:
			if m.Method == "" || len(m.ID) == 0 {
				t.Fatalf("request without method or id: %+v", m)
			}
		case KindNotification:
			if m.Method == "" || m.ID != nil {
				t.Fatalf("bad notification: %+v", m)
			}
		case KindResponse:
			if len(m.ID) == 0 || m.Result == nil && m.Error == nil {
				t.Fatalf("bad response: %+v", m)
			}
		default:
			t.Fatalf("no kind: %+v", m)
		}
	})
}

// FuzzRun feeds arbitrary bytes to a connection's reader: it never
// panics, and every request it reads is answered or handed over.
func FuzzRun(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n{\"method\":\"b\"}\ngarbage\n"))
	f.Add(bytes.Repeat([]byte("{"), 5000))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := New(bytes.NewReader(b), io.Discard, Options{MaxMessage: 4096,
			OnRequest: func(m Message) {}, OnNotify: func(m Message) {}, OnNoise: func([]byte, error) {}})
		c.Run()
		c.Close()
	})
}
