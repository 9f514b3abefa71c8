package attention

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// maxPromptLine bounds each line of a prompt peek-prompt returns.
const maxPromptLine = 400

// addVerbs adds peek-prompt and respond.
func (r *Prompts) addVerbs(h core.Host) {
	p, run := core.Handle(func(c core.Call, p *proto.PeekPromptParams) (any, *proto.Error) {
		w, err := h.Window(c, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		pk := r.peek(w)
		if pk.Blocked && pk.Found {
			r.inbox.Update(w.ID) // the Inbox item says the risk this peek read (prompt_risk.go)
		}
		if held, ok := r.holds.peekHeld(pk.PromptPeek); ok { // a prompt the Inbox holds (held_respond.go)
			return held, nil
		}
		return pk.PromptPeek, nil
	})
	h.AddVerb(core.Verb{Name: "peek-prompt", Class: core.Reads, Agent: true, Returns: "prompt_peek", Params: p, Run: run,
		Desc:    "Read what a blocked pane asks: the prompt's dialog read whole from the screen and the pane's history, else the lines its screen rule read (untrusted), the options, the actions offered, the risk rules what it asks hits (cut short, with not_whole saying why, when its dialog cannot be read whole) and a prompt_id",
		Example: `{"verb":"peek-prompt","params":{"window":"review"}}`})

	p, run = core.Handle(r.respond)
	h.AddVerb(core.Verb{Name: "respond", Class: core.Answers, Agent: true, Returns: "prompt_response", Params: p, Run: run,
		Desc:    "Answer a pane's prompt as the person: presses exactly the keys the harness manifest's answers name, after checking the prompt is still the one peeked",
		Example: `{"verb":"respond","params":{"window":"review","prompt_id":"75f8b9fadb5b5dfc","action":"approve","human_nonce":"…"}}`})
}

// promptPeek is peek-prompt's result and what respond reads besides.
type promptPeek struct {
	proto.PromptPeek

	prompt detect.Prompt
	input  detect.InputSpec
	screen *vt.Screen
}

// peek reads a window's prompt now.
func (r *Prompts) peek(w core.WindowView) promptPeek {
	snap := r.h.Tracker().Arbiter().Get(w.ID)
	pk := promptPeek{PromptPeek: proto.PromptPeek{Type: "prompt_peek", Session: w.Session, Window: w.ID, Name: w.DisplayName, Harness: snap.Harness,
		State: snap.State.String(), Source: snap.SourceName(), Rule: -1, Message: snap.Message, Lines: []string{},
		Options: []proto.PromptOption{}, Actions: []string{}, Untrusted: true}, screen: w.Pane.Tracked().Screen()}
	if !snap.StateAt.IsZero() {
		pk.StateAt = snap.StateAt.UnixMilli()
	}
	pk.Blocked = snap.State == agentstate.NeedsInput
	if pk.Blocked && !snap.StateAt.IsZero() {
		pk.WaitingMS = max(0, r.h.Clock().Now().Sub(snap.StateAt).Milliseconds())
	}
	if !pk.Blocked {
		pk.Reason = "not waiting: the pane is " + pk.State
	}
	man, p, d, ok := r.readPrompt(w.Pane, snap.Harness) // prompt_risk.go: the dialog whole, history included
	if man != nil {
		pk.input = man.Input
	}
	if man == nil {
		if pk.Reason == "" {
			pk.Reason = "no harness is known for this pane, so no screen rule reads its prompt"
		}
		return pk
	}
	if !ok {
		if pk.Reason == "" {
			pk.Reason = "no screen rule of " + snap.Harness + " reads a prompt on the screen now"
		}
		return pk
	}
	if d.Whole {
		// The peek shows, and the prompt id covers, the dialog whole: the
		// command a short tile pushed up is part of what is answered.
		p.Lines = d.Lines
		if len(d.Options) > 0 && sameNumbers(d.Options, p.Options) {
			p.Options = d.Options // whole labels where the tile cut a wrapped one
		}
	}
	pk.Found, pk.prompt = true, p
	pk.Rule, pk.Kind = p.Rule, p.Kind.String()
	if pk.Message == "" || !pk.Blocked {
		pk.Message = p.Message
	}
	for _, l := range p.Lines {
		pk.Lines = append(pk.Lines, cleanPromptLine(l))
	}
	for _, o := range p.Options {
		pk.Options = append(pk.Options, proto.PromptOption{N: o.N, Label: o.Label, Selected: o.Selected, Deny: choiceDenies(p, o)})
	}
	pk.Actions = offered(p)
	var entered time.Time
	if pk.Blocked {
		entered = r.enteredAt(w.ID, snap)
	}
	pk.PromptID = promptID(snap.Harness, entered, p)
	hits, notWhole := r.promptHits(pk.Message, p, d, r.paneRoot(w.Pane), r.home) // prompt_risk.go
	pk.Risk = ruleNames(hits)
	if notWhole {
		pk.NotWhole = whyNotWhole
	}
	switch {
	case !pk.Blocked:
	case p.Answers == nil:
		pk.Reason = "the rule that reads this prompt names no answers: answer it in the pane"
	case len(pk.Actions) == 0:
		pk.Reason = "none of the rule's answers fits the options on the screen"
	default:
		pk.Answerable = true
	}
	return pk
}

// cleanPromptLine removes control characters and cuts a line to 400 bytes.
func cleanPromptLine(l string) string {
	l = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != 0x200D {
			return -1
		}
		return r
	}, l)
	if len(l) > maxPromptLine {
		l = cutBytes(l, maxPromptLine)
	}
	return l
}

// cutBytes cuts s to at most n bytes, at a rune's start.
func cutBytes(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// promptID is a hash of what was read: the harness, the rule, when the
// pane entered needs_input, the lines and the options.
func promptID(harness string, entered time.Time, p detect.Prompt) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", harness, p.Rule, entered.UnixNano())
	for _, l := range p.Lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	for _, o := range p.Options {
		fmt.Fprintf(h, "\x00%d %s", o.N, o.Label)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// offered lists the actions the rule's answers allow on this screen.
func offered(p detect.Prompt) []string {
	out := []string{}
	a := p.Answers
	if a == nil {
		return out
	}
	for _, x := range []struct {
		name string
		a    *detect.Answer
	}{{"approve", a.Approve}, {"approve_always", a.ApproveAlways}, {"deny", a.Deny}} {
		if _, ok := answerKeys(p, x.a); ok {
			out = append(out, x.name)
		}
	}
	if a.Choose == "digit" && len(p.Options) > 0 {
		out = append(out, "choose")
	}
	if a.Text {
		out = append(out, "text")
	}
	return out
}

// answerKeys is what an answer presses on this screen: its keys, else the
// digit of the option its label prefix names. ok is false when the answer
// is not there or names an option the screen does not show.
func answerKeys(p detect.Prompt, a *detect.Answer) ([]string, bool) {
	if a == nil {
		return nil, false
	}
	var keys []string
	if a.Option != "" {
		o, ok := detect.OptionFor(p.Options, a.Option)
		if !ok {
			return nil, false
		}
		keys = []string{strconv.Itoa(o.N)}
	}
	if len(a.Keys) > 0 {
		keys = append([]string(nil), a.Keys...)
	}
	return keys, len(keys) > 0
}

// keyBytes turns an answer's key names into bytes in the harness's input
// mode: enter is its submit key, arrows follow the cursor-key mode.
func keyBytes(keys []string, in detect.InputSpec, sc *vt.Screen) []byte {
	app := sc.Mode(vt.ModeAppCursorKeys)
	var b []byte
	for _, k := range keys {
		switch k {
		case "enter":
			b = append(b, in.SubmitKey()...)
		case "esc":
			b = append(b, 0x1b)
		case "tab":
			b = append(b, '\t')
		case "space":
			b = append(b, ' ')
		case "backspace":
			b = append(b, 0x7f)
		case "up", "down", "right", "left":
			c := map[string]byte{"up": 'A', "down": 'B', "right": 'C', "left": 'D'}[k]
			if app {
				b = append(b, 0x1b, 'O', c)
			} else {
				b = append(b, 0x1b, '[', c)
			}
		default:
			b = append(b, k...)
		}
	}
	return b
}
