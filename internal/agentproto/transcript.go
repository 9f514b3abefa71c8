package agentproto

import (
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

// The transcript's bounds: a flood of updates costs at most this much.
const (
	maxBlocks     = 1000     // oldest dropped first
	maxBlockText  = 64 << 10 // a message keeps its last 64 KiB
	maxToolOutput = 2 << 10  // a tool call keeps the last 2 KiB it printed
	maxPlanSteps  = 64
)

type blockKind int

const (
	blockUser blockKind = iota
	blockAgent
	blockThought
	blockTool
	blockPlan
	blockNotice
	blockError
)

// block is one entry of the transcript. Every string in it is cleaned.
type block struct {
	kind blockKind
	id   string
	text string // cached from buf for a message
	buf  []byte // a message's text as it streams
	// tool calls
	title, toolKind, status, target, output string
	// plans
	plan []conv.PlanEntry
}

// transcript is the conversation as drawn, bounded.
type transcript struct {
	blocks []*block
	tools  map[string]*block
}

func newTranscript() *transcript { return &transcript{tools: map[string]*block{}} }

func (t *transcript) add(b *block) *block {
	if len(t.blocks) >= maxBlocks {
		old := t.blocks[0]
		if old.kind == blockTool && t.tools[old.id] == old {
			delete(t.tools, old.id)
		}
		t.blocks = append(t.blocks[:0], t.blocks[1:]...)
	}
	t.blocks = append(t.blocks, b)
	return b
}

// say adds a line of tuios's own (a notice or an error).
func (t *transcript) say(kind blockKind, text string) {
	t.add(&block{kind: kind, text: Clean(text)})
}

// user adds the person's prompt.
func (t *transcript) user(text string) {
	t.add(&block{kind: blockUser, text: keepTail(Clean(text), maxBlockText)})
}

// text appends a chunk to the message it continues, or starts one.
func (t *transcript) text(e conv.Text) {
	kind := blockAgent
	switch e.Role {
	case conv.RoleThought:
		kind = blockThought
	case conv.RoleUser:
		return // the pane drew the prompt when it was sent
	}
	chunk := Clean(e.Text)
	if chunk == "" {
		return
	}
	if n := len(t.blocks); n > 0 {
		last := t.blocks[n-1]
		if last.kind == kind && (e.ID == "" || last.id == e.ID) {
			last.grow(chunk)
			return
		}
	}
	b := t.add(&block{kind: kind, id: e.ID})
	b.grow(chunk)
}

// grow appends a chunk to a message. The text is kept as bytes that grow
// in place (a stream of small chunks costs what it brings, not a copy of
// the message each time) and cut back to its last maxBlockText bytes
// when it reaches twice that.
func (b *block) grow(chunk string) {
	b.buf = append(b.buf, chunk...)
	if len(b.buf) >= 2*maxBlockText {
		tail := keepTail(string(b.buf), maxBlockText)
		b.buf = append(b.buf[:0], tail...)
	}
	b.text = ""
}

// body is a block's text: a message's grown bytes, cut to the bound.
func (b *block) body() string {
	if b.buf != nil && b.text == "" {
		b.text = keepTail(string(b.buf), maxBlockText)
	}
	return b.text
}

// tool records a tool call or its update.
func (t *transcript) tool(e conv.Tool) *block {
	b := t.tools[e.ID]
	if b == nil || e.ID == "" {
		b = t.add(&block{kind: blockTool, id: e.ID, status: "pending"})
		if e.ID != "" {
			t.tools[e.ID] = b
		}
	}
	if e.Title != "" {
		b.title = oneLine(e.Title, 400)
	}
	if e.Kind != "" {
		b.toolKind = oneLine(e.Kind, 32)
	}
	if e.Status != "" {
		b.status = oneLine(e.Status, 32)
	}
	if e.Target != "" {
		b.target = oneLine(e.Target, 400)
	}
	if e.Output != "" {
		b.output = keepTail(Clean(e.Output), maxToolOutput)
	}
	return b
}

// setPlan replaces the plan: the last plan block when nothing came after
// it, else a new one.
func (t *transcript) setPlan(p conv.Plan) {
	steps := p.Entries
	if len(steps) > maxPlanSteps {
		steps = steps[:maxPlanSteps]
	}
	clean := make([]conv.PlanEntry, len(steps))
	for i, s := range steps {
		clean[i] = conv.PlanEntry{Text: oneLine(s.Text, 400), Status: oneLine(s.Status, 32)}
	}
	if n := len(t.blocks); n > 0 && t.blocks[n-1].kind == blockPlan {
		t.blocks[n-1].plan = clean
		return
	}
	t.add(&block{kind: blockPlan, plan: clean})
}

// lastAgentLine is the first line of the agent's last message, for the
// state's message when a turn ends.
func (t *transcript) lastAgentLine() string {
	for i := len(t.blocks) - 1; i >= 0; i-- {
		b := t.blocks[i]
		if b.kind == blockAgent {
			for _, l := range strings.Split(b.body(), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					return oneLine(l, 200)
				}
			}
		}
		if b.kind == blockUser {
			break
		}
	}
	return ""
}

// keepTail cuts s to its last max bytes on a rune boundary, marking the
// cut.
func keepTail(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := len(s) - max + len("…")
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return "…" + s[cut:]
}
