package agentproto

import (
	"strings"
	"testing"
	"time"

	"github.com/clipperhouse/displaywidth"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

func TestTheFrameFitsAndShowsWhatMatters(t *testing.T) {
	m := newModel("acp", "gemini")
	m.started, m.turn, m.state = true, true, stateNeeds
	m.tr.user("write the file")
	m.tr.text(conv.Text{Role: conv.RoleAgent, Text: "Sure. " + strings.Repeat("long words wrap here ", 20)})
	m.tr.tool(conv.Tool{ID: "t1", Title: "echo hi > x.txt", Kind: "execute", Status: "completed", Output: "a\nb\nc\nd\ne\nf"})
	m.tr.setPlan(conv.Plan{Entries: []conv.PlanEntry{{Text: "write", Status: "completed"}, {Text: "check", Status: "in_progress"}}})
	m.perms = []*perm{{Permission: conv.Permission{ID: "p1", Tool: "shell", Kind: "execute", Target: "rm -rf build", Once: true, Deny: true}}}
	m.ed.insert("next")
	for _, size := range [][2]int{{80, 24}, {40, 10}, {10, 4}} {
		rows, cr, cc := m.frame(size[0], size[1])
		if len(rows) != size[1] {
			t.Fatalf("%v: %d rows", size, len(rows))
		}
		for _, r := range rows {
			if w := displaywidth.String(r.text); w > size[0] {
				t.Fatalf("%v: a row of %d cells: %q", size, w, r.text)
			}
		}
		if cr < 0 || cr >= size[1] || cc < 0 || cc > size[0] {
			t.Fatalf("%v: cursor at %d,%d", size, cr, cc)
		}
		if !strings.HasPrefix(rows[cr].text, "›") && size[0] > 10 {
			t.Fatalf("%v: the cursor is not on the editor: %q", size, rows[cr].text)
		}
	}
	rows, _, _ := m.frame(80, 24)
	var all strings.Builder
	for _, r := range rows {
		all.WriteString(r.text + "\n")
	}
	for _, want := range []string{"› write the file", "✓ execute: echo hi > x.txt (completed)", "│ f", "[x] write", "[>] check",
		"▲ the agent asks to run shell: rm -rf build", "1 allow once   3 deny", "› next"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the frame lacks %q:\n%s", want, all.String())
		}
	}
}

func TestTheDwellGatesTheDigits(t *testing.T) {
	m := newModel("acp", "x")
	p := &perm{Permission: conv.Permission{Once: true, Deny: true}}
	if m.dwellOver(p) {
		t.Fatal("a request never drawn counts as read")
	}
	p.shownAt = time.Now().Add(-dwell / 2)
	if m.dwellOver(p) {
		t.Fatal("read after half the dwell")
	}
	p.shownAt = time.Now().Add(-dwell)
	if !m.dwellOver(p) {
		t.Fatal("not read after the dwell")
	}
}

func TestTheTranscriptIsBounded(t *testing.T) {
	tr := newTranscript()
	for i := 0; i < 3*maxBlocks; i++ {
		tr.tool(conv.Tool{ID: strings.Repeat("t", i%7) + string(rune('a'+i%26)) + string(rune(i)), Title: "x", Status: "completed"})
		tr.text(conv.Text{ID: string(rune(i)), Role: conv.RoleAgent, Text: "y"})
	}
	if len(tr.blocks) > maxBlocks || len(tr.tools) > maxBlocks {
		t.Fatalf("%d blocks, %d tools kept", len(tr.blocks), len(tr.tools))
	}
	tr.text(conv.Text{Role: conv.RoleAgent, Text: strings.Repeat("z", 3*maxBlockText)})
	if l := len(tr.blocks[len(tr.blocks)-1].body()); l > maxBlockText {
		t.Fatalf("a message of %d bytes kept", l)
	}
}
