package tui

import (
	"errors"
	"strings"
	"testing"
)

// y on a Resume row asks the daemon to type that pane's resume command;
// y on any other row does nothing, and a refusal stays on the row.
func TestResumeRowY(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	openWith(t, m,
		map[string]any{"id": "e1", "kind": "errored", "session": "work", "window": "w1", "name": "shell", "seq": 1},
		map[string]any{"id": "r1", "kind": "resume", "session": "work", "window": "w2", "name": "claude", "summary": "claude --resume abc-123", "seq": 2},
	)
	m.Update(key("y")) // on the errored row
	if n := countCalls(fc, "resume-agent"); n != 0 {
		t.Fatalf("y on an errored row called resume-agent %d time(s)", n)
	}
	if f := footer(m); strings.Contains(f, "y resume") {
		t.Errorf("errored footer offers y: %q", f)
	}
	m.Update(key("j"))
	if f := footer(m); !strings.HasPrefix(f, "y resume  enter go  d dismiss  z snooze") {
		t.Errorf("resume footer %q", f)
	}
	m.Update(key("y"))
	c := fc.last(t, "resume-agent")
	if c.params["session"] != "work" || c.params["window"] != "w2" || c.params["dry_run"] != nil {
		t.Fatalf("resume-agent %v", c.params)
	}
	lists := countCalls(fc, "list-attention")
	m.Update(reply("inbox:resume", map[string]any{"command": "claude --resume abc-123", "typed": true}))
	if d := plain(m)[19]; !strings.Contains(d, "Typed claude --resume abc-123") {
		t.Errorf("dock %q", d)
	}
	if countCalls(fc, "list-attention") != lists+1 {
		t.Error("the list was not read again after the resume")
	}
	// A refusal (a program still runs there) is said, and nothing else.
	m.Update(replyMsg{tag: "inbox:resume", err: errors.New("not_ready: a program runs in claude")})
	if !strings.Contains(screenText(m), "not_ready: a program runs in claude") {
		t.Errorf("refusal not shown:\n%s", screenText(m))
	}
}
