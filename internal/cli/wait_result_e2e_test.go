package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

// wait-for says in one line what matched: a message by id, sender and
// thread (never its body), the state reached, the matched pane line
// fenced as pane text, a quiet pane, an exit code, a session.
func TestWaitForSaysWhatMatched(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "sh", "--no-focus")

	e.ok("send-agent-message", "-s", "work", "-w", "human", "--subject", "q", "secret body text")
	out := e.ok("wait-for", "agent-message", "-s", "work", "-w", "human", "--timeout", "5000")
	if !regexp.MustCompile(`^#\d+ from a shell \(thread \d+\)\n$`).MatchString(out) || strings.Contains(out, "secret") {
		t.Fatalf("agent-message: %q", out)
	}
	e.ok("send-agent-message", "-s", "work", "-w", "human", "--from", "ci bot", "x")
	if out := e.ok("wait-for", "agent-message", "-s", "work", "-w", "human", "--thread", "2", "--timeout", "5000"); out != "#2 from ci bot (thread 2)\n" {
		t.Fatalf("agent-message with --from: %q", out)
	}

	e.ok("set-agent-state", "-s", "work", "-w", "sh", "needs_input", "-m", "which one?", "--kind", "question")
	if out := e.ok("wait-for", "agent-state", "-s", "work", "-w", "sh", "--until", "needs_input,errored"); !regexp.MustCompile(`^window [0-9a-f]{8} is needs_input\n$`).MatchString(out) {
		t.Fatalf("agent-state: %q", out)
	}

	e.ok("send-text", "-s", "work", "-w", "sh", "echo got_$((40+2)) \\\x1b[31mred\n")
	out = e.ok("wait-for", "window-output", "-s", "work", "-w", "sh", "--pattern", "got_42")
	if !strings.Contains(out, "--- begin untrusted content from window ") || !strings.Contains(out, "got_42") ||
		strings.Contains(out, "echo got_") || strings.Contains(out, "\x1b") {
		t.Fatalf("window-output: %q", out)
	}
	if out := e.ok("wait-for", "window-idle", "-s", "work", "-w", "sh", "--idle", "200"); !strings.HasSuffix(out, " went quiet\n") {
		t.Fatalf("window-idle: %q", out)
	}
	if out := e.ok("wait-for", "session-exists", "-s", "work"); out != "session work exists\n" {
		t.Fatalf("session-exists: %q", out)
	}
	e.ok("send-text", "-s", "work", "-w", "sh", "exit 3\n")
	if out := e.ok("wait-for", "window-exit", "-s", "work", "-w", "sh", "--timeout", "10000"); !regexp.MustCompile(`^window [0-9a-f]{8} exited with code 3( and closed)?\n$`).MatchString(out) {
		t.Fatalf("window-exit: %q", out)
	}
}

// list-agents: the person's unread mail under the table, --all counts
// panes and agents apart, and the footer says how to address a row.
func TestListAgentsFooterCountsPanesAndHumanMail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "pa", "--no-focus")
	e.ok("new-window", "-s", "work", "pb", "--no-focus")
	out := e.ok("list-agents", "-s", "work", "--all")
	if !strings.Contains(out, "3 pane(s), 0 agents.") || strings.Contains(out, "agent pane(s)") || strings.Contains(out, "human:") {
		t.Fatalf("--all with plain shells:\n%s", out)
	}
	e.ok("set-agent-state", "-s", "work", "-w", "pa", "working", "--harness", "claude-code")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "pa", "--until", "working")
	if out := e.ok("list-agents", "-s", "work", "--all"); !strings.Contains(out, "3 pane(s), 1 agent.") {
		t.Fatalf("--all with one agent:\n%s", out)
	}
	// The footer is the skill's line even when the focused pane is not an
	// agent (pa was opened --no-focus).
	if out := e.ok("list-agents", "-s", "work"); !strings.Contains(out, "\n1 agent pane(s). * marks the focused one. Address one with -w and its ID or NAME.\n") {
		t.Fatalf("without --all:\n%s", out)
	}
	for range 3 {
		e.ok("send-agent-message", "-s", "work", "-w", "human", "hello")
	}
	if out := e.ok("list-agents", "-s", "work"); !strings.Contains(out, "human: 3 unread") {
		t.Fatalf("no human unread line:\n%s", out)
	}
}

// window-idle counts the silence from when the wait began: a pane that
// was quiet before it does not answer at once, so a command typed just
// before the wait, whose output has not arrived yet, is waited for.
func TestWaitForIdleWaitsOutOutputStillToCome(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	// Typing prints nothing (no echo); half a second after a line comes
	// in, the program prints.
	e.ok("new-window", "-s", "work", "late", "--no-focus", "sh", "-c", "stty -echo; read x; sleep 0.5; echo woke_$((40+2)); exec sleep 1000")
	e.ok("wait-for", "window-idle", "-s", "work", "-w", "late", "--idle", "2000", "--timeout", "20000")
	e.ok("send-text", "-s", "work", "-w", "late", "go\n")
	e.ok("wait-for", "window-idle", "-s", "work", "-w", "late", "--idle", "2000", "--timeout", "20000")
	if out := e.ok("capture-pane", "-s", "work", "-w", "late"); !strings.Contains(out, "woke_42") {
		t.Fatalf("window-idle answered before the pane printed what the typed line started:\n%s", out)
	}
}

// window-output matches what the pane printed: a line wrapped at the
// pane's width is matched whole, marker across the wrap included, and ^
// and $ anchor to the printed line, not the row.
func TestWaitForOutputMatchesAWrappedLineWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work") // 80 columns
	e.ok("new-window", "-s", "work", "sh", "--no-focus")
	// The line starts on a row of its own: typed before the shell's
	// prompt came back, its output would otherwise follow that prompt.
	e.ok("send-text", "-s", "work", "-w", "sh", "printf '\\n%075d' 0; printf 'WRAP_%s_MARK\\n' $((3+4))\n")
	out := e.ok("wait-for", "window-output", "-s", "work", "-w", "sh", "--pattern", "^0+WRAP_7_MARK$", "--timeout", "10000")
	if !strings.Contains(out, strings.Repeat("0", 75)+"WRAP_7_MARK") {
		t.Fatalf("the matched line is not the printed line whole: %q", out)
	}
}
