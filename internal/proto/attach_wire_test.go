package proto

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func encodeStd(t testing.TB, v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// randScreen is a screen message with the text a pane shows: SGR, wide
// characters, controls, invalid UTF-8, quotes, U+2028.
func randScreen(rng *rand.Rand) AttachScreen {
	bits := []string{"a", "$ ", "\x1b[31m", "\x1b[0m", "世界", "e\u0301", "🙂", "\"", "\\", "\x00", "\x07", "\t", "\n", "\x7f", "\xff", "\xc3", "\u2028", "\u2029", "<&>", "/"}
	text := func() string {
		var sb strings.Builder
		for n := rng.IntN(12); n > 0; n-- {
			sb.WriteString(bits[rng.IntN(len(bits))])
		}
		return sb.String()
	}
	s := AttachScreen{Type: "screen", Window: text(), Cols: rng.IntN(300) - 2, Rows: rng.IntN(200), Full: rng.IntN(2) == 0,
		Cursor: AttachCursor{X: rng.IntN(100) - 1, Y: rng.IntN(100), Visible: rng.IntN(2) == 0},
		Modes: AttachModes{AppCursor: rng.IntN(2) == 0, AppKeypad: rng.IntN(3) == 0, BracketedPaste: rng.IntN(2) == 0,
			AltScreen: rng.IntN(2) == 0, MouseSGR: rng.IntN(2) == 0, FocusEvents: rng.IntN(2) == 0}}
	if rng.IntN(2) == 0 {
		s.Modes.Mouse = []string{"x10", "normal", "button", "any", text()}[rng.IntN(5)]
	}
	if rng.IntN(2) == 0 {
		s.Title = text()
	}
	switch rng.IntN(4) {
	case 0: // nil: null on the wire
	case 1:
		s.Lines = []AttachLine{}
	default:
		for n := rng.IntN(6); n >= 0; n-- {
			s.Lines = append(s.Lines, AttachLine{Y: rng.IntN(1000) - 3, Text: text()})
		}
	}
	return s
}

// The screen line the daemon writes is byte for byte encoding/json's,
// and the client reads it back as encoding/json does.
func TestAttachScreenWire(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 5000; i++ {
		s := randScreen(rng)
		got := AppendAttachScreen(nil, &s)
		want := encodeStd(t, s)
		if !bytes.Equal(got, want) {
			t.Fatalf("wire differs for %+v:\n got %s\nwant %s", s, got, want)
		}
		var fast, std AttachScreen
		if err := ParseAttachScreen(got, &fast); err != nil {
			t.Fatalf("the daemon's own line was not read fast: %s", got)
		}
		if err := json.Unmarshal(got, &std); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("read differently:\nfast %+v\n std %+v\nline %s", fast, std, got)
		}
	}
}

// Lines of another shape are left to encoding/json.
func TestParseAttachScreenRefusesOtherShapes(t *testing.T) {
	for _, line := range []string{
		`{"type":"screen","window_id":null}`,
		`{"type":"screen","Window_ID":"w"}`,
		`{"type":"screen","cols":1,"cols":2}`,
		`{"type":"screen","cols":1.0}`,
		`{"type":"screen","cols":1e3}`,
		`{"type":"screen","cols":01}`,
		`{"type":"screen","cols":99999999999999999999}`,
		`{"type":"screen","extra":1}`,
		`{"type":"screen","title":"\xff"}`,
		`{"type":"screen"} x`,
		`{"type":"screen","title":"a` + "\x01" + `"}`,
	} {
		var s AttachScreen
		if err := ParseAttachScreen([]byte(line), &s); err == nil {
			t.Errorf("read fast: %s", line)
		}
	}
}

// FuzzParseAttachScreen: whatever the line, the fast reader never
// panics, and what it accepts encoding/json reads the same.
func FuzzParseAttachScreen(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 20; i++ {
		s := randScreen(rng)
		f.Add(AppendAttachScreen(nil, &s))
	}
	f.Add([]byte(`{"type":"screen","lines":[{"y":1,"text":"\ud83d\ude00\ud800x\u00e9\/"}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast AttachScreen
		if ParseAttachScreen(line, &fast) != nil {
			return
		}
		var std AttachScreen
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("read fast what encoding/json refuses (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("read differently:\nfast %+v\n std %+v\nline %q", fast, std, line)
		}
	})
}

func BenchmarkAttachScreenWire(b *testing.B) {
	s := AttachScreen{Type: "screen", Window: "0123456789abcdef0123456789abcdef", Cols: 120, Rows: 39,
		Lines:  []AttachLine{{Y: 0, Text: "$ a" + strings.Repeat(" ", 117)}},
		Cursor: AttachCursor{X: 3, Visible: true}}
	line := AppendAttachScreen(nil, &s)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for i := 0; i < b.N; i++ {
			buf = AppendAttachScreen(buf[:0], &s)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		for i := 0; i < b.N; i++ {
			buf.Reset()
			e.Encode(&s)
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var got AttachScreen
			if err := ParseAttachScreen(line, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var got AttachScreen
			if err := json.Unmarshal(line, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
