package daemon

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// With a client attached that named its prefix, send-keys hands it a
// chord of that prefix and one key instead of typing the bytes; without
// one (or with another prefix) the bytes go to the pane, as detached.
func TestSendKeysHandsALeaderChordToTheClient(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "k"})["window_id"])
	r.must("new-session", map[string]any{"name": "other"})

	// No client: the two bytes go to the shell.
	if res := r.must("send-keys", map[string]any{"session": "k", "window": a, "keys": "ctrl+b,n"}); res["bytes"] != 2.0 || res["to_client"] != nil {
		t.Fatalf("detached: %v", res)
	}
	r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+u"}) // clear the line the bytes left

	// A client of another session, and one without a prefix: still bytes.
	attachStreamT(t, sock, map[string]any{"session": "other", "prefix": "ctrl+b"})
	attachStreamT(t, sock, map[string]any{"session": "k"})
	if res := r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+b,n"}); res["bytes"] != 2.0 {
		t.Fatalf("no client of k named a prefix: %v", res)
	}
	r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+u"})

	st, _ := attachStreamT(t, sock, map[string]any{"session": "k", "prefix": "ctrl+b"})
	for _, spelled := range []string{"ctrl+b,n", "C-b n", "^b,Up"} {
		res := r.must("send-keys", map[string]any{"window": a, "keys": spelled})
		if res["to_client"] != true || res["bytes"] != 0.0 {
			t.Fatalf("%q with a client attached: %v", spelled, res)
		}
		l := st.until("the chord", func(l line) bool { return l.typ == "keys" })
		var k proto.AttachKeys
		json.Unmarshal(l.raw, &k)
		if k.Window != a || len(k.Keys) != 2 || !strings.EqualFold(strings.Join(k.Keys, ","), strings.NewReplacer(" ", ",").Replace(spelled)) {
			t.Fatalf("%q: the client got %+v", spelled, k)
		}
	}
	// The prefix alone is a key like any: its byte goes to the pane.
	if res := r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+b"}); res["bytes"] != 1.0 {
		t.Fatalf("the prefix alone: %v", res)
	}
	r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+u"})
	// A chord with keys after it is refused, nothing typed.
	for _, bad := range []string{"ctrl+b,n,ls,Enter", "ctrl+b,hello"} {
		if _, err := r.call("send-keys", map[string]any{"window": a, "keys": bad}); err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil || !strings.Contains(err.Hint.Detail, "another send-keys") {
			t.Fatalf("%q: %+v", bad, err)
		}
	}
	// Nothing the client took reached the shell.
	r.must("send-text", map[string]any{"window": a, "text": "echo mark_$((2+3))\n"})
	r.must("wait-for", map[string]any{"window": a, "condition": "window-output", "pattern": "(?m)^mark_5$", "timeout": 10000})
	scr := str(r.must("capture-pane", map[string]any{"window": a})["content"])
	if !strings.Contains(scr, "$ echo mark_") || strings.Contains(scr, "necho") || strings.Contains(scr, "\x02") {
		t.Fatalf("the shell got keys the client took:\n%s", scr)
	}

	// Another prefix: ctrl+b is bytes again, ctrl+a is the chord.
	st.c.Close()
	other, _ := attachStreamT(t, sock, map[string]any{"session": "k", "prefix": "ctrl+a"})
	eventually(t, "the ctrl+b client is gone", func() bool {
		res := r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+b,n"})
		r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+u"})
		return res["to_client"] == nil
	})
	if res := r.must("send-keys", map[string]any{"window": a, "keys": "C-a,n"}); res["to_client"] != true {
		t.Fatalf("ctrl+a to a ctrl+a client: %v", res)
	}
	other.until("the ctrl+a chord", func(l line) bool { return l.typ == "keys" })
}

// FuzzChordTokens: the chord's tokens are the ones KeyBytes types, so a
// chord handed to a client is exactly what would otherwise reach the pane.
func FuzzChordTokens(f *testing.F) {
	for _, s := range []string{"ctrl+b,n", "C-b n", " ,ctrl+b,, n ", "hello", "", "M-x,Up"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, keys string) {
		var b []byte
		for _, tok := range chordTokens(keys) {
			if tok == "" || strings.ContainsAny(tok, " ,") {
				t.Fatalf("%q: token %q", keys, tok)
			}
			b = append(b, mux.KeyToken(tok)...)
			_ = oneKey(tok)
		}
		if string(b) != string(mux.KeyBytes(keys)) {
			t.Fatalf("%q: the chord's tokens type %q, KeyBytes %q", keys, b, mux.KeyBytes(keys))
		}
	})
}

// PREFIX in send-keys is the [keybindings] prefix, so the person's
// "PREFIX n" is the chord ctrl+b,n.
func TestSendKeysSpellsPrefix(t *testing.T) {
	t.Parallel()
	s := &Server{opt: Options{Config: &config.File{}}}
	for in, want := range map[string]string{
		"PREFIX n":   "ctrl+b,n",
		"prefix,c":   "ctrl+b,c",
		"PREFIX":     "ctrl+b",
		"echo hello": "echo hello",
		"ctrl+b,n":   "ctrl+b,n",
	} {
		if got := s.spellPrefix(in); got != want {
			t.Errorf("spellPrefix(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(mux.KeyBytes(s.spellPrefix("PREFIX n"))); got != "\x02n" {
		t.Errorf("PREFIX n types %q, want ctrl+b then n", got)
	}
}
