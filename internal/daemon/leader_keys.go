package daemon

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// Leader chords and send-keys.
//
// The docs: "Use send-keys for … tuios's own leader chords … Leader chords
// only mean something where a client is attached, because the bindings
// live in that client's interface. On a detached session ctrl+b,n is
// delivered to the shell as the two bytes it spells." So the daemon, which
// has no bindings, hands a chord to a client that shows the pane's session
// and runs it there. A client says its leader key when it attaches
// (attach's prefix param); the chord is that key and exactly one more,
// which the client runs as if the person pressed them in the pane
// send-keys named.
//
// What is and is not a chord:
//   - the prefix alone is a key like any other (vim's ctrl+b pages up): its
//     byte goes to the pane;
//   - the prefix and one key, with a client that named that prefix on the
//     session, go to the client; with none, to the pane as bytes;
//   - the prefix and more than one key, with such a client, are refused:
//     which pane the keys after the chord should reach is the chord's
//     own doing, so they are sent after it, by another send-keys.
//
// The prefix is compared by the bytes it spells, so ctrl+b, C-b and ^b are
// the same chord.

// maxHeldChords bounds the chords waiting for one client's next frame.
const maxHeldChords = 16

// chordTokens splits send-keys's argument as KeyBytes does.
func chordTokens(keys string) []string {
	return strings.FieldsFunc(keys, func(r rune) bool { return r == ' ' || r == ',' })
}

// oneKey says whether a send-keys token is a single key (a named key, a
// combination, or one character) rather than text typed as written.
func oneKey(tok string) bool {
	return mux.KeyToken(tok) != tok || utf8.RuneCountInString(tok) == 1
}

// chordClient is the stream to hand keys to: of the clients showing ss
// whose leader is the first token, the one that sized the session last
// (the client the person is most likely at). Nil when none.
func (h *attachHub) chordClient(ss *mux.Session, first string) *attachStream {
	var best *attachStream
	var bestAt int64
	want := mux.KeyToken(first)
	h.each(func(st *attachStream) {
		// st.prefix is set before the stream is added to the hub.
		if st.ss != ss || st.prefix == "" || mux.KeyToken(st.prefix) != want {
			return
		}
		st.mu.Lock()
		at := st.size.at.UnixNano()
		st.mu.Unlock()
		if best == nil || at > bestAt {
			best, bestAt = st, at
		}
	})
	return best
}

// refusePrefix refuses, for a caller inside a pane, keys that start with
// the prefix key and go on: a leader chord would run in the person's
// client as if the person pressed it. The prefix is the config's
// [keybindings] prefix (ctrl+b by default) or that of a client showing
// the pane's session. The prefix alone is a key like any other.
//
// The word PREFIX names the prefix key wherever it stands, and is refused
// from a pane even alone: a script that sends it means the binding.
func (s *Server) refusePrefix(w *mux.Window, keys string) *proto.Error {
	toks := chordTokens(keys)
	named := slices.ContainsFunc(toks, isPrefixWord)
	if len(toks) < 2 && !named {
		return nil
	}
	if !named && mux.KeyToken(toks[0]) != mux.KeyToken(s.prefixKey()) && s.attach.chordClient(w.Session(), toks[0]) == nil {
		return nil
	}
	key := toks[0]
	if named {
		key = "PREFIX, " + s.prefixKey()
	}
	return proto.Errorf(proto.CodeForbidden, "send-keys with the prefix key (%s) is refused from a pane: it would run the person's key binding. Use the TUIOS command for the action, such as focus-window, new-window, split-window, close-window, select-workspace or run-command", key).
		WithHint(proto.Hint{Command: "tuios run-command --list", Detail: "each binding has a command; to type the bytes into the pane, use send-text"})
}

// prefixKey is the [keybindings] prefix, ctrl+b by default.
func (s *Server) prefixKey() string {
	if prefix := s.opt.Config.Bindings("")["prefix"]; prefix != "" {
		return prefix
	}
	return "ctrl+b"
}

// isPrefixWord says whether a send-keys token is the word PREFIX (any
// case), which names the prefix key.
func isPrefixWord(tok string) bool { return strings.EqualFold(tok, "prefix") }

// spellPrefix writes each PREFIX token of keys as the prefix key itself.
func (s *Server) spellPrefix(keys string) string {
	toks := chordTokens(keys)
	if !slices.ContainsFunc(toks, isPrefixWord) {
		return keys
	}
	for i, tok := range toks {
		if isPrefixWord(tok) {
			toks[i] = s.prefixKey()
		}
	}
	return strings.Join(toks, ",")
}

// handChord hands keys to an attached client when they are a leader chord
// of one (handed true), refuses a chord with keys after it, and leaves
// anything else to be typed into the pane (handed false, no error).
func (s *Server) handChord(w *mux.Window, keys string) (handed bool, err *proto.Error) {
	toks := chordTokens(keys)
	if len(toks) < 2 {
		return false, nil
	}
	st := s.attach.chordClient(w.Session(), toks[0])
	if st == nil {
		return false, nil
	}
	if len(toks) > 2 || !oneKey(toks[1]) {
		return false, proto.Errorf(proto.CodeInvalidParams, "%s starts a leader chord of the attached client: the chord is %s and one key", toks[0], toks[0]).
			WithHint(proto.Hint{Detail: "send the chord alone (tuios send-keys '" + toks[0] + ",n') and the keys after it with another send-keys; to type the bytes into the pane instead, use send-text"})
	}
	st.mu.Lock()
	full := len(st.keys) >= maxHeldChords
	if !full {
		st.keys = append(st.keys, proto.AttachKeys{Type: "keys", Window: w.ID, Keys: toks})
	}
	st.mu.Unlock()
	if full {
		return false, proto.Errorf(proto.CodeRateLimited, "the attached client has not taken the last %d chords yet", maxHeldChords).
			WithHint(proto.Hint{Detail: "wait for it to draw, then send again"})
	}
	st.poke()
	return true, nil
}
