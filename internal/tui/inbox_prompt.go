package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tuios/tuios/internal/proto"
)

// The prompt view: Space on an approval or a question shows the prompt as
// the pane shows it (its lines with their spacing, its numbered options),
// how long the agent has waited, and a footer of only the answers this
// prompt has. Those come from peek-prompt: its actions are what the
// harness's manifest declares for the prompt on screen, so `A` is offered
// only where the menu has an "always" option, digits only for the options
// it shows, and nothing but enter, r and esc when no prompt was read.

// peekTickMsg redraws the prompt view once a second, so its wait time
// counts up; gen names the peek it is for.
type peekTickMsg struct{ gen int }

func peekTick(gen int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return peekTickMsg{gen: gen} })
}

// onPeekTick keeps the tick going while the peek it was armed for is open.
func (m *Model) onPeekTick(msg peekTickMsg) tea.Cmd {
	if m.inbox == nil || m.inbox.peek == nil || msg.gen != m.inbox.peekGen {
		return nil
	}
	return peekTick(msg.gen)
}

// peekArrived starts the view's wait clock for a peek just read.
func (m *Model) peekArrived() tea.Cmd {
	in := m.inbox
	in.peekAt = m.clock.Now()
	in.peekGen++
	return peekTick(in.peekGen)
}

// peekOffers reports whether the peeked prompt takes an action. Only an
// answerable prompt takes any.
func peekOffers(pk *peek, action string) bool {
	if pk == nil || !pk.Answerable {
		return false
	}
	for _, a := range pk.Actions {
		if a == action {
			return true
		}
	}
	return false
}

// peekOption is option n of the peeked prompt, when choose is offered.
func peekOption(pk *peek, n int) (opt proto.PromptOption, ok bool) {
	if !peekOffers(pk, "choose") {
		return opt, false
	}
	for _, o := range pk.Options {
		if o.N == n {
			return o, true
		}
	}
	return opt, false
}

// optionRange is how the footer names the options: "1-3", or "1,3" when
// they are not in a row.
func optionRange(pk *peek) string {
	var nums []string
	contiguous := true
	for i, o := range pk.Options {
		nums = append(nums, strconv.Itoa(o.N))
		if i > 0 && o.N != pk.Options[i-1].N+1 {
			contiguous = false
		}
	}
	switch {
	case len(nums) == 0:
		return ""
	case len(nums) == 1:
		return nums[0]
	case contiguous:
		return nums[0] + "-" + nums[len(nums)-1]
	}
	return strings.Join(nums, ",")
}

// peekAllows reports whether a key answers the peeked prompt with an
// allow (what a risky prompt needs a second press for), and whether the
// key answers it at all.
func peekAllows(pk *peek, name string) (allow, offered bool) {
	switch {
	case len(name) == 1 && name[0] >= '1' && name[0] <= '9':
		// The daemon says which options refuse: a refusal takes one
		// press even on a risky prompt; anything else is an allow.
		o, ok := peekOption(pk, int(name[0]-'0'))
		return ok && !o.Deny, ok
	case name == "a":
		return true, peekOffers(pk, "approve")
	case name == "A":
		return true, peekOffers(pk, "approve_always")
	case name == "d":
		return false, peekOffers(pk, "deny")
	}
	return false, false
}

// peekKeys is the prompt view's footer: the answers this prompt has, then
// going to the pane, reading again and going back.
func (m *Model) peekKeys() string {
	pk := m.inbox.peek
	if x := m.inbox.input; x != nil && x.answer {
		return "enter send  esc cancel"
	}
	var k []string
	if peekOffers(pk, "choose") && len(pk.Options) > 0 {
		k = append(k, optionRange(pk)+" choose")
	}
	if peekOffers(pk, "approve") {
		k = append(k, "a approve")
	}
	if peekOffers(pk, "approve_always") {
		k = append(k, "A always")
	}
	if peekOffers(pk, "deny") {
		k = append(k, "d deny")
	}
	if peekOffers(pk, "text") {
		k = append(k, "tab type an answer")
	}
	k = append(k, "enter go to pane", "r read again", "esc back")
	return strings.Join(m.boundHints(ModePeek, k), "  ") // hint.go: the keys bound now
}

// waited is how long the agent has waited on the peeked prompt: what the
// daemon said when it was read, plus the time since.
func (m *Model) waited() string {
	in := m.inbox
	pk := in.peek
	if !pk.Blocked {
		return ""
	}
	d := time.Duration(pk.WaitingMS)*time.Millisecond + max(m.clock.Now().Sub(in.peekAt), 0)
	return waitWords(d)
}

// waitWords says a wait in at most two units: 45s, 3m 05s, 2h 10m.
func waitWords(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
}

// screenLine makes a line of the pane safe to draw while keeping it as
// the pane shows it: escape sequences, control and format characters and
// invalid bytes go, a tab becomes the spaces to the next tab stop and any
// other space one space, and runs of spaces stay (a box's right edge
// stays where the pane drew it).
func screenLine(s string) string {
	s = ansi.Strip(s)
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n <= 1:
			continue
		case r == '\t':
			pad := 8 - col%8
			b.WriteString(strings.Repeat(" ", pad))
			col += pad
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
			continue
		case unicode.IsSpace(r):
			r = ' '
		}
		b.WriteRune(r)
		col += max(ansi.StringWidth(string(r)), 0)
	}
	return strings.TrimRight(b.String(), " ")
}

// promptRows draws the prompt view under the Inbox's header row.
func (m *Model) promptRows(cols, rows int, out []string) []string {
	pk := m.inbox.peek
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	head := fmt.Sprintf(" %s (%s) %s", clean(pk.Name), clean(pk.Session), stateWord(pk.State))
	if w := m.waited(); w != "" {
		head += ", waiting " + w
	}
	out = append(out, sgrBold+line(head)+sgrReset)
	if pk.Message != "" {
		out = append(out, line(" "+clean(pk.Message)))
	}
	if !pk.Answerable && pk.Reason != "" {
		out = append(out, line(" "+clean(pk.Reason)))
	}
	out = append(out, "")
	bar := " │ "
	if a {
		bar = " | "
	}
	for _, l := range pk.Lines {
		out = append(out, line(bar+screenLine(l)))
	}
	if len(pk.Options) > 0 {
		out = append(out, "")
	}
	for _, o := range pk.Options {
		out = append(out, line(fmt.Sprintf("   %d. %s", o.N, clean(o.Label))))
	}
	if len(pk.Risk) > 0 {
		out = append(out, "", line(" risky: "+strings.Join(cleanAll(pk.Risk), ", ")))
	}
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	note := m.inbox.note
	if ok, _ := m.ready(); !ok && note == "" && pk.Answerable {
		note = "reading…"
	}
	out = append(out, line(" "+note))
	out = append(out, sgrReverse+line(" "+m.peekKeys())+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

// openTypedAnswer is Tab on a prompt that takes text: the answer is typed
// on the dock line and sent with enter.
func (m *Model) openTypedAnswer() {
	in := m.inbox
	if !peekOffers(in.peek, "text") {
		return
	}
	m.dropPending()
	in.input = &inboxInput{answer: true, label: "Answer " + clean(in.peek.Name) + ": ", limit: maxTypedAnswer}
}

// maxTypedAnswer is the longest typed answer respond takes, in bytes.
const maxTypedAnswer = 4096

// sendTypedAnswer answers the peeked prompt with the text typed. The
// prompt id goes along, so a prompt that changed meanwhile is left alone.
func (m *Model) sendTypedAnswer(text string) {
	in := m.inbox
	pk := in.peek
	if text == "" || pk == nil {
		return
	}
	if ok, _ := m.ready(); !ok {
		in.note = "read it first: answers work in a moment"
		return
	}
	m.call("respond", proto.RespondParams{Session: pk.Session, Window: pk.Window, Action: "text", Value: text,
		PromptID: pk.PromptID, HumanNonce: m.nonce}, "inbox:respond:tab")
}
