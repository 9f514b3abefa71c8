package agentproto

import (
	"bytes"
	"unicode/utf8"
)

// keyKind is what a key press does in the pane.
type keyKind int

const (
	keyRune keyKind = iota
	keyPaste
	keySubmit
	keyBackspace
	keyDelete
	keyLeft
	keyRight
	keyHome
	keyEnd
	keyKillLine // Ctrl+U
	keyKillEnd  // Ctrl+K
	keyKillWord // Ctrl+W
	keyInterrupt
	keyEOF
	keyIgnored
)

type key struct {
	kind keyKind
	r    rune
	text string // a paste
}

// maxPaste bounds one bracketed paste; the rest is dropped.
const maxPaste = 256 << 10

// keyReader turns the bytes a terminal sends into keys. It keeps what a
// read cut in the middle of a sequence, and a bracketed paste until its
// end marker, so pasted text (newlines included) is text and never a key:
// a queued prompt or an ask-agent paste cannot answer a permission
// request, and its newlines do not submit.
type keyReader struct {
	pending []byte
	inPaste bool
	paste   []byte
	over    bool // the paste went over maxPaste
}

var pasteEnd = []byte("\x1b[201~")

// feed reads b and returns the keys it completes.
func (kr *keyReader) feed(b []byte) []key {
	kr.pending = append(kr.pending, b...)
	var out []key
	for len(kr.pending) > 0 {
		if kr.inPaste {
			i := bytes.Index(kr.pending, pasteEnd)
			if i < 0 {
				// Keep a tail that may be the start of the end marker.
				keep := 0
				for k := len(pasteEnd) - 1; k > 0; k-- {
					if bytes.HasSuffix(kr.pending, pasteEnd[:k]) {
						keep = k
						break
					}
				}
				kr.addPaste(kr.pending[:len(kr.pending)-keep])
				kr.pending = append(kr.pending[:0], kr.pending[len(kr.pending)-keep:]...)
				return out
			}
			kr.addPaste(kr.pending[:i])
			kr.pending = kr.pending[i+len(pasteEnd):]
			out = append(out, key{kind: keyPaste, text: string(kr.paste)})
			kr.inPaste, kr.paste, kr.over = false, nil, false
			continue
		}
		k, n := kr.one(kr.pending)
		if n == 0 {
			break // an incomplete sequence: wait for the rest
		}
		kr.pending = kr.pending[n:]
		if k.kind == keyPaste {
			kr.inPaste = true
			continue
		}
		if k.kind != keyIgnored {
			out = append(out, k)
		}
	}
	if len(kr.pending) == 0 {
		kr.pending = kr.pending[:0]
	}
	return out
}

// flush ends a lone ESC (a read that ended on it): the Esc key, ignored.
func (kr *keyReader) flush() {
	if !kr.inPaste && bytes.Equal(kr.pending, []byte{0x1b}) {
		kr.pending = kr.pending[:0]
	}
}

func (kr *keyReader) addPaste(b []byte) {
	room := maxPaste - len(kr.paste)
	if len(b) > room {
		b, kr.over = b[:max(room, 0)], true
	}
	kr.paste = append(kr.paste, b...)
}

// one reads one key from the start of b; n 0 means b ends mid-sequence.
func (kr *keyReader) one(b []byte) (key, int) {
	switch c := b[0]; {
	case c == '\r' || c == '\n':
		return key{kind: keySubmit}, 1
	case c == 0x7f || c == 0x08:
		return key{kind: keyBackspace}, 1
	case c == 0x03:
		return key{kind: keyInterrupt}, 1
	case c == 0x04:
		return key{kind: keyEOF}, 1
	case c == 0x01:
		return key{kind: keyHome}, 1
	case c == 0x05:
		return key{kind: keyEnd}, 1
	case c == 0x02:
		return key{kind: keyLeft}, 1
	case c == 0x06:
		return key{kind: keyRight}, 1
	case c == 0x15:
		return key{kind: keyKillLine}, 1
	case c == 0x0b:
		return key{kind: keyKillEnd}, 1
	case c == 0x17:
		return key{kind: keyKillWord}, 1
	case c == 0x1b:
		return kr.escape(b)
	case c < 0x20:
		return key{kind: keyIgnored}, 1
	}
	if !utf8.FullRune(b) {
		return key{}, 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError {
		return key{kind: keyIgnored}, n
	}
	return key{kind: keyRune, r: r}, n
}

// escape reads an escape sequence: the few keys the editor knows, the
// paste start, anything else skipped whole.
func (kr *keyReader) escape(b []byte) (key, int) {
	if len(b) < 2 {
		return key{}, 0
	}
	if b[1] != '[' && b[1] != 'O' {
		if b[1] == 0x1b {
			return key{kind: keyIgnored}, 1
		}
		return key{kind: keyIgnored}, 2 // Alt+key
	}
	// CSI or SS3: parameters, then a final byte.
	i := 2
	for i < len(b) && (b[i] >= 0x30 && b[i] <= 0x3f || b[i] >= 0x20 && b[i] <= 0x2f) {
		i++
	}
	if i >= len(b) {
		if i > 64 {
			return key{kind: keyIgnored}, i // not a key anyone sends
		}
		return key{}, 0
	}
	final, params := b[i], string(b[2:i])
	n := i + 1
	switch final {
	case 'D':
		return key{kind: keyLeft}, n
	case 'C':
		return key{kind: keyRight}, n
	case 'H':
		return key{kind: keyHome}, n
	case 'F':
		return key{kind: keyEnd}, n
	case '~':
		switch params {
		case "200":
			return key{kind: keyPaste}, n
		case "3":
			return key{kind: keyDelete}, n
		case "1", "7":
			return key{kind: keyHome}, n
		case "4", "8":
			return key{kind: keyEnd}, n
		}
	}
	return key{kind: keyIgnored}, n
}

// editor is the line the person types the next prompt in.
type editor struct {
	buf []rune
	cur int
}

// maxEditor bounds the prompt being typed.
const maxEditor = 64 << 10

func (e *editor) text() string { return string(e.buf) }
func (e *editor) empty() bool  { return len(e.buf) == 0 }
func (e *editor) clear()       { e.buf, e.cur = e.buf[:0], 0 }

func (e *editor) insert(s string) {
	rs := []rune(s)
	if room := maxEditor - len(e.buf); len(rs) > room {
		rs = rs[:max(room, 0)]
	}
	e.buf = append(e.buf[:e.cur], append(rs, e.buf[e.cur:]...)...)
	e.cur += len(rs)
}

// apply does an editing key; it reports whether it was one.
func (e *editor) apply(k key) bool {
	switch k.kind {
	case keyRune:
		e.insert(string(k.r))
	case keyPaste:
		// A paste is text: its line ends stay in the prompt.
		e.insert(normalizeNewlines(k.text))
	case keyBackspace:
		if e.cur > 0 {
			e.buf = append(e.buf[:e.cur-1], e.buf[e.cur:]...)
			e.cur--
		}
	case keyDelete:
		if e.cur < len(e.buf) {
			e.buf = append(e.buf[:e.cur], e.buf[e.cur+1:]...)
		}
	case keyLeft:
		e.cur = max(e.cur-1, 0)
	case keyRight:
		e.cur = min(e.cur+1, len(e.buf))
	case keyHome:
		e.cur = 0
	case keyEnd:
		e.cur = len(e.buf)
	case keyKillLine:
		e.buf, e.cur = append(e.buf[:0], e.buf[e.cur:]...), 0
	case keyKillEnd:
		e.buf = e.buf[:e.cur]
	case keyKillWord:
		i := e.cur
		for i > 0 && e.buf[i-1] == ' ' {
			i--
		}
		for i > 0 && e.buf[i-1] != ' ' {
			i--
		}
		e.buf = append(e.buf[:i], e.buf[e.cur:]...)
		e.cur = i
	default:
		return false
	}
	return true
}

func normalizeNewlines(s string) string {
	b := []byte(s)
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}
