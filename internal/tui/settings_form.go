package tui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A form on the settings page: Add a host's name and address, or the
// value of an Alerts key that is typed rather than flipped. It takes
// every key while open (the settings_form mode of the key table): typed
// text goes into the field under the cursor, tab and shift+tab move
// between fields, enter saves, esc leaves with nothing written. A save
// the form refuses keeps it open with the reason under the fields, so
// bad input changes nothing and says why.

// maxFieldRunes bounds a field: a host name, an address or a value is a
// line, never a paste of a file.
const maxFieldRunes = 512

// formField is one line of a form.
type formField struct {
	label string
	text  []rune
	help  string // the line under the field: what it takes
}

// settingsForm is the open form.
type settingsForm struct {
	title    string
	fields   []formField
	at       int
	saveWord string // what enter does, for the key line: "add", "set"
	// err is why the last save was refused; "" when none.
	err string
	// save checks the fields and saves them. It returns why the input is
	// refused ("" when it was taken); the form stays open with the
	// reason, and nothing was written. A form taken closes, unless save
	// says formWaits: then the daemon's answer closes it or gives the
	// reason.
	save func(m *Model, f *settingsForm) string
}

// value is a field's text.
func (f *settingsForm) value(i int) string { return string(f.fields[i].text) }

// formKey is a key while a form is open.
func (m *Model) formKey(k tea.Key, name string) {
	p := m.agentsUI.page
	f := p.form
	fl := &f.fields[f.at]
	switch m.keys.in(ModeSettingsForm, name) {
	case "settings_form.next":
		f.at = (f.at + 1) % len(f.fields)
	case "settings_form.prev":
		f.at = (f.at + len(f.fields) - 1) % len(f.fields)
	case "settings_form.cancel":
		p.form = nil
	case "settings_form.save":
		switch why := f.save(m, f); why {
		case "":
			if p.form == f {
				p.form = nil
			}
		case formWaits: // the daemon's answer closes it or says why not
		default:
			f.err = why
		}
	case "settings_form.fixed.backspace":
		if len(fl.text) > 0 {
			fl.text = fl.text[:len(fl.text)-1]
		}
	case "settings_form.fixed.clear":
		fl.text = fl.text[:0]
	default:
		if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) && !k.Mod.Contains(tea.ModAlt) {
			m.formType(k.Text)
		}
	}
}

// formType adds text to the field under the cursor: one line, cleaned
// of control characters, within the field's bound.
func (m *Model) formType(text string) {
	f := m.agentsUI.page.form
	fl := &f.fields[f.at]
	// clean folds and trims whitespace; a space typed (or at either end
	// of a paste) is kept as one.
	one := clean(text)
	if strings.TrimLeftFunc(text, unicode.IsSpace) != text && len(fl.text) > 0 && fl.text[len(fl.text)-1] != ' ' {
		one = " " + one
	}
	if strings.TrimSpace(one) != "" && strings.TrimRightFunc(text, unicode.IsSpace) != text {
		one += " "
	}
	add := []rune(one)
	fl.text = append(fl.text, add[:min(len(add), max(maxFieldRunes-len(fl.text), 0))]...)
}

// formLines draw the form: its title, each field with the one under the
// cursor marked (a glyph and bold: the cue without colour), the line
// under each, and why the last save was refused.
func (m *Model) formLines(cols, rows int) []string {
	f := m.agentsUI.page.form
	a := m.opt.ASCIIOnly
	mark, bad := "›", "✗"
	if a {
		mark, bad = ">", "x"
	}
	w := 0
	for _, fl := range f.fields {
		w = max(w, len([]rune(fl.label)))
	}
	out := []string{fitPlain("", cols, a), sgrBold + fitPlain(" "+f.title, cols, a) + sgrReset, fitPlain("", cols, a)}
	for i, fl := range f.fields {
		text := string(fl.text)
		if i == f.at {
			out = append(out, sgrBold+fitPlain(" "+mark+" "+padRight(fl.label, w)+"  "+text+"_", cols, a)+sgrReset)
		} else {
			out = append(out, fitPlain("   "+padRight(fl.label, w)+"  "+text, cols, a))
		}
		if fl.help != "" {
			out = append(out, sgrMuted+fitPlain("   "+padRight("", w)+"  "+fl.help, cols, a)+sgrReset)
		}
	}
	if f.err != "" {
		out = append(out, fitPlain("", cols, a))
		for i, l := range strings.Split(ansi.Wrap(clean(f.err), max(cols-4, 8), ""), "\n") {
			lead := "   "
			if i == 0 {
				lead = " " + bad + " "
			}
			out = append(out, "\x1b[0;1;31m"+fitPlain(lead+l, cols, a)+sgrReset)
		}
	}
	return out
}
