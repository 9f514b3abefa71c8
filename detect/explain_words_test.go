package detect

import (
	"strings"
	"testing"
)

// The evidence sentence names the kind of evidence the rule read: a path
// on the command line is not a process name.
func TestExplainNamesTheEvidenceKindRead(t *testing.T) {
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	for _, c := range []struct {
		p    ProcInfo
		want string
	}{
		{ProcInfo{PID: 7, Comm: "node", Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, Exe: "/usr/bin/node"},
			"A package path the program runs from is strong evidence."},
		{ProcInfo{PID: 8, Comm: "claude", Argv: []string{"claude"}, Exe: "/usr/bin/claude"}, "A process name is strong evidence."},
	} {
		x := d.ExplainProcess(c.p)
		if !x.Matched || len(x.Evidence) < 2 || x.Evidence[len(x.Evidence)-1] != c.want {
			t.Errorf("%v: evidence %q, want it to end with %q", c.p.Argv, x.Evidence, c.want)
		}
		if c.want != "A process name is strong evidence." && strings.Contains(x.String(), "process name is strong") {
			t.Errorf("%v still says process name:\n%s", c.p.Argv, x.String())
		}
	}
	for rule, want := range map[string]string{
		"argv0=claude (run token)": "The script an interpreter runs is strong evidence.",
		"exe_glob=**/codex":        "An executable's path is strong evidence.",
		"name exe=myagent":         "An executable's name is strong evidence.",
		"name package=myagent":     "A package path the program runs from is strong evidence.",
		"argv0=codex":              "The name a program was started as is strong evidence.",
	} {
		if got := evidenceWords(rule); got != want {
			t.Errorf("%s: %q, want %q", rule, got, want)
		}
	}
}

// A pane whose own process is in the foreground is at its shell prompt
// only when that process is an interactive shell.
func TestOwnProcessVerdict(t *testing.T) {
	for _, c := range []struct {
		p    ProcInfo
		want string
	}{
		{ProcInfo{Comm: "bash", Argv: []string{"bash", "--norc", "--noprofile", "-i"}, Exe: "/usr/bin/bash"}, atPrompt},
		{ProcInfo{Comm: "bash", Argv: []string{"-bash"}, Exe: "/usr/bin/bash"}, atPrompt},
		{ProcInfo{Comm: "bash", Argv: []string{"bash", "--rcfile", "/tmp/rc"}, Exe: "/usr/bin/bash"}, atPrompt},
		{ProcInfo{Comm: "c-osc.sh", Argv: []string{"/bin/bash", "/tmp/audit/c-osc.sh", "x"}, Exe: "/usr/bin/bash"},
			"This pane runs the script /tmp/audit/c-osc.sh (with bash). It runs no agent."},
		{ProcInfo{Comm: "sh", Argv: []string{"sh", "-c", "sleep 9"}, Exe: "/usr/bin/dash"}, "This pane runs a shell command (sh). It runs no agent."},
		{ProcInfo{Comm: "cat", Argv: []string{"cat"}, Exe: "/usr/bin/cat"}, "This pane runs cat, the program it was started with. It runs no agent."},
	} {
		if got := ownProcessVerdict(newView(c.p), c.p.Label()); got != c.want {
			t.Errorf("%v: %q, want %q", c.p.Argv, got, c.want)
		}
	}
}

// With detection off the verdict says so: a match read live does not make
// the pane an agent.
func TestExplainSaysDetectionIsOff(t *testing.T) {
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	x := d.ExplainProcess(ProcInfo{PID: 9, Comm: "codex", Argv: []string{"codex"}, Exe: "/usr/bin/codex"})
	x.DetectionOff()
	if x.Detection != "off" || !strings.HasPrefix(x.Verdict, "This pane runs codex. Detection is off") ||
		!strings.Contains(x.String(), "agent_autodetect = false") {
		t.Fatalf("detection off:\n%s", x.String())
	}
}

// A match by the name list is a section of its own in the text, after a
// blank line, like every other section: not a literal backslash-n (the
// section's line went through the escaping that process text gets).
func TestExplainStringNameListSection(t *testing.T) {
	d := NewDetector(DetectorOptions{})
	defer d.Close()
	x := d.ExplainProcess(ProcInfo{PID: 9, Comm: "claude", Argv: []string{"claude"}, Exe: "/opt/x/claude"})
	if x.NameList == "" {
		t.Fatalf("no name-list match: %#v", x)
	}
	s := x.String()
	if strings.Contains(s, `\n`) || !strings.Contains(s, "\n\nName list: matched on "+x.NameList+"\n") {
		t.Fatalf("name-list section:\n%s", s)
	}
}
