package tui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// encodeKey turns a key the outer terminal reported back into the bytes
// an xterm would have sent the pane's program, in the modes that program
// asked for. It returns "" for a key a terminal sends nothing for (a lone
// modifier).
func encodeKey(k tea.Key, modes proto.AttachModes) string {
	alt := k.Mod.Contains(tea.ModAlt)
	ctrl := k.Mod.Contains(tea.ModCtrl)
	shift := k.Mod.Contains(tea.ModShift)
	esc := ""
	if alt {
		esc = "\x1b"
	}
	if k.Text != "" && !ctrl {
		return esc + k.Text
	}
	// xterm's modifier parameter: 1 + shift + 2·alt + 4·ctrl.
	mod := 1
	if shift {
		mod++
	}
	if alt {
		mod += 2
	}
	if ctrl {
		mod += 4
	}
	cursor := func(final byte) string {
		if mod > 1 {
			return "\x1b[1;" + strconv.Itoa(mod) + string(final)
		}
		if modes.AppCursor {
			return "\x1bO" + string(final)
		}
		return "\x1b[" + string(final)
	}
	tilde := func(n int) string {
		if mod > 1 {
			return "\x1b[" + strconv.Itoa(n) + ";" + strconv.Itoa(mod) + "~"
		}
		return "\x1b[" + strconv.Itoa(n) + "~"
	}
	switch k.Code {
	case tea.KeyUp, tea.KeyKpUp:
		return cursor('A')
	case tea.KeyDown, tea.KeyKpDown:
		return cursor('B')
	case tea.KeyRight, tea.KeyKpRight:
		return cursor('C')
	case tea.KeyLeft, tea.KeyKpLeft:
		return cursor('D')
	case tea.KeyHome, tea.KeyKpHome:
		return cursor('H')
	case tea.KeyEnd, tea.KeyKpEnd:
		return cursor('F')
	case tea.KeyInsert, tea.KeyKpInsert:
		return tilde(2)
	case tea.KeyDelete, tea.KeyKpDelete:
		return tilde(3)
	case tea.KeyPgUp, tea.KeyKpPgUp:
		return tilde(5)
	case tea.KeyPgDown, tea.KeyKpPgDown:
		return tilde(6)
	case tea.KeyF1, tea.KeyF2, tea.KeyF3, tea.KeyF4:
		final := string(rune('P' + k.Code - tea.KeyF1))
		if mod > 1 {
			return "\x1b[1;" + strconv.Itoa(mod) + final
		}
		return "\x1bO" + final
	case tea.KeyEnter, tea.KeyKpEnter:
		if modes.AppKeypad && k.Code == tea.KeyKpEnter {
			return esc + "\x1bOM"
		}
		return esc + "\r"
	case tea.KeyTab:
		if shift {
			return "\x1b[Z"
		}
		return esc + "\t"
	case tea.KeyBackspace:
		if ctrl {
			return esc + "\x08"
		}
		return esc + "\x7f"
	case tea.KeyEscape:
		return esc + "\x1b"
	case tea.KeySpace:
		if ctrl {
			return esc + "\x00"
		}
		return esc + " "
	}
	if n, ok := fnTilde(k.Code); ok {
		return tilde(n)
	}
	if s, ok := keypadText(k.Code); ok {
		return esc + s
	}
	if k.Code >= tea.KeyExtended || k.Code < 0 || !utf8.ValidRune(k.Code) {
		return ""
	}
	if ctrl {
		if b, ok := ctrlByte(k.Code); ok {
			return esc + string(rune(b))
		}
	}
	r := k.Code
	if shift && k.ShiftedCode != 0 {
		r = k.ShiftedCode
	}
	return esc + string(r)
}

// fnTilde is n for the function keys xterm sends as CSI n ~.
func fnTilde(r rune) (int, bool) {
	switch r {
	case tea.KeyF5:
		return 15, true
	case tea.KeyF6, tea.KeyF7, tea.KeyF8, tea.KeyF9, tea.KeyF10:
		return 17 + int(r-tea.KeyF6), true
	case tea.KeyF11, tea.KeyF12:
		return 23 + int(r-tea.KeyF11), true
	}
	return 0, false
}

// keypadText is what the keypad types outside application keypad mode.
func keypadText(r rune) (string, bool) {
	if r >= tea.KeyKp0 && r <= tea.KeyKp9 {
		return string(rune('0' + r - tea.KeyKp0)), true
	}
	switch r {
	case tea.KeyKpEqual:
		return "=", true
	case tea.KeyKpMultiply:
		return "*", true
	case tea.KeyKpPlus:
		return "+", true
	case tea.KeyKpComma:
		return ",", true
	case tea.KeyKpMinus:
		return "-", true
	case tea.KeyKpDecimal:
		return ".", true
	case tea.KeyKpDivide:
		return "/", true
	}
	return "", false
}

// ctrlByte is the C0 byte ctrl+key types.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r-'a') + 1, true
	case r >= 'A' && r <= 'Z':
		return byte(r-'A') + 1, true
	}
	switch r {
	case '@', '2':
		return 0, true
	case '[', '3':
		return 0x1b, true
	case '\\', '4':
		return 0x1c, true
	case ']', '5':
		return 0x1d, true
	case '^', '6':
		return 0x1e, true
	case '_', '7', '/':
		return 0x1f, true
	case '?', '8':
		return 0x7f, true
	}
	return 0, false
}

// encodePaste wraps a paste for a program that asked for bracketed paste.
// The pasted text itself may not end the bracket early: an ESC[201~
// inside it is dropped, as xterm does.
func encodePaste(text string, modes proto.AttachModes) string {
	if !modes.BracketedPaste {
		return text
	}
	const end = "\x1b[201~"
	return "\x1b[200~" + strings.ReplaceAll(text, end, "") + end
}

// mouseEvent is one mouse report for a pane, in pane cells (0-based).
type mouseEvent struct {
	x, y    int
	button  tea.MouseButton
	mod     tea.KeyMod
	release bool
	motion  bool
}

// wantsMouse reports whether a pane in modes wants this kind of event.
func wantsMouse(modes proto.AttachModes, ev mouseEvent) bool {
	switch modes.Mouse {
	case "x10":
		return !ev.release && !ev.motion
	case "normal":
		return !ev.motion
	case "button":
		return !ev.motion || ev.button != tea.MouseNone
	case "any":
		return true
	}
	return false
}

// encodeMouse is the report xterm would send: SGR (1006) when the program
// asked for it, else the X10 byte form, whose coordinates stop at 223.
func encodeMouse(ev mouseEvent, modes proto.AttachModes) string {
	b := 0
	switch ev.button {
	case tea.MouseLeft:
		b = 0
	case tea.MouseMiddle:
		b = 1
	case tea.MouseRight:
		b = 2
	case tea.MouseWheelUp:
		b = 64
	case tea.MouseWheelDown:
		b = 65
	case tea.MouseWheelLeft:
		b = 66
	case tea.MouseWheelRight:
		b = 67
	default:
		b = 3
	}
	if ev.motion {
		b += 32
	}
	if ev.mod.Contains(tea.ModShift) {
		b += 4
	}
	if ev.mod.Contains(tea.ModAlt) {
		b += 8
	}
	if ev.mod.Contains(tea.ModCtrl) {
		b += 16
	}
	if modes.MouseSGR {
		final := "M"
		if ev.release {
			final = "m"
		}
		return "\x1b[<" + strconv.Itoa(b) + ";" + strconv.Itoa(ev.x+1) + ";" + strconv.Itoa(ev.y+1) + final
	}
	if ev.release {
		b = 3 | (b &^ 3 & 0x1c)
	}
	x, y := min(ev.x+1, 223), min(ev.y+1, 223)
	return "\x1b[M" + string([]byte{byte(32 + b), byte(32 + x), byte(32 + y)})
}
