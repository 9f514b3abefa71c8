package agentproto

import (
	"strings"
	"testing"
)

func kinds(ks []key) []keyKind {
	var out []keyKind
	for _, k := range ks {
		out = append(out, k.kind)
	}
	return out
}

func TestAPasteIsTextEvenAcrossReads(t *testing.T) {
	var kr keyReader
	var got []key
	for _, part := range []string{"\x1b[20", "0~run: a\r\nb", "\r1\x1b[2", "01~", "\r"} {
		got = append(got, kr.feed([]byte(part))...)
	}
	if len(got) != 2 || got[0].kind != keyPaste || got[0].text != "run: a\r\nb\r1" || got[1].kind != keySubmit {
		t.Fatalf("keys: %+v", got)
	}
	var e editor
	e.apply(got[0])
	if e.text() != "run: a\nb\n1" {
		t.Fatalf("editor: %q", e.text())
	}
}

func TestKeysTheEditorKnows(t *testing.T) {
	var kr keyReader
	ks := kr.feed([]byte("ab\x1b[D\x7fc\x03\x04\x1b[3~\x1b[1;5A\x01\x05\x15"))
	want := []keyKind{keyRune, keyRune, keyLeft, keyBackspace, keyRune, keyInterrupt, keyEOF, keyDelete, keyHome, keyEnd, keyKillLine}
	if got := kinds(ks); len(got) != len(want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	var e editor
	for _, k := range ks[:5] {
		e.apply(k)
	}
	if e.text() != "cb" || e.cur != 1 {
		t.Fatalf("editor %q at %d", e.text(), e.cur)
	}
}

func TestAPasteIsBounded(t *testing.T) {
	var kr keyReader
	kr.feed([]byte("\x1b[200~"))
	for i := 0; i < 64; i++ {
		kr.feed([]byte(strings.Repeat("x", 16<<10)))
	}
	ks := kr.feed([]byte("\x1b[201~"))
	if len(ks) != 1 || len(ks[0].text) != maxPaste {
		t.Fatalf("paste of %d bytes", len(ks[0].text))
	}
}

func FuzzKeyReader(f *testing.F) {
	for _, s := range []string{"\x1b[200~hi\x1b[201~", "\x1b[", "\x1bO", "é\xc3", "\x1b\x1b[C", "\r\n\x03\x04"} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		var kr keyReader
		var e editor
		if split < 0 {
			split = -split
		}
		for len(b) > 0 {
			n := min(len(b), split%7+1)
			for _, k := range kr.feed(b[:n]) {
				e.apply(k)
			}
			b = b[n:]
		}
		kr.flush()
		if e.cur < 0 || e.cur > len(e.buf) || len(e.buf) > maxEditor {
			t.Fatalf("editor out of bounds: cur %d len %d", e.cur, len(e.buf))
		}
		if len(kr.pending) > 64+len(pasteEnd) && !kr.inPaste {
			t.Fatalf("%d bytes kept waiting", len(kr.pending))
		}
	})
}
