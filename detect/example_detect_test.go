package detect_test

import (
	"fmt"
	"os"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

// ExampleDetector_ExplainProcess explains two processes as a pane's
// foreground leader: a native Claude Code install, and tail reading a file
// in a directory named after an agent, which is not evidence.
func ExampleDetector_ExplainProcess() {
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})
	d := detect.NewDetector(detect.DetectorOptions{Registry: reg})
	defer d.Close()

	for _, p := range []detect.ProcInfo{
		{PID: 4242, Comm: "claude", Argv: []string{"claude"}, Exe: "/home/u/.local/share/claude/versions/2.1.222"},
		{PID: 4343, Comm: "tail", Argv: []string{"tail", "-f", "/home/u/dev/opencode/main.go"}, Exe: "/usr/bin/tail"},
	} {
		x := d.ExplainProcess(p)
		fmt.Println(x.Verdict)
		for _, e := range x.Evidence {
			fmt.Println("  " + e)
		}
		for _, w := range x.Ignored {
			fmt.Println("  " + w.Sentence)
		}
	}
	// Output:
	// This pane runs claude-code.
	//   The process claude matched the manifest claude-code on comm=claude.
	//   A process name is strong evidence.
	// This pane does not run an agent. The foreground process is tail.
	//   The argument "/home/u/dev/opencode/main.go" contains the word "opencode". A word inside an argument is not evidence.
}

// ExampleDetector_Detect reads a pane's foreground by the pid of the
// process on its PTY: here a program started with TUIOS_AGENT naming its
// harness (what a wrapper script does when the agent hides behind it), and
// a shell pid that does not exist, which reads as not running.
func ExampleDetector_Detect() {
	// A daemon uses LoadOptions{} (bundled plus the user directory); the
	// example skips the user directory so its output does not depend on it.
	reg, errs := detect.Load(detect.LoadOptions{NoUser: true})
	for _, e := range errs {
		fmt.Println(e.Error()) // a bad manifest is reported, the rest load
	}
	d := detect.NewDetector(detect.DetectorOptions{Registry: reg})
	defer d.Close()

	proc, err := pty.Start(pty.Options{Argv: []string{"sleep", "30"}, Env: []string{"PATH=" + os.Getenv("PATH"), "TUIOS_AGENT=claude-code"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer proc.Close()
	// Right after Start the process may still be inside its exec: its
	// name already the new program's, its environment not yet readable.
	// Look again until it settles, as a tracker does on its next look.
	var m detect.Match
	for range 100 {
		if m, err = d.Detect(proc.Pid()); err != nil || m.Agent {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println(m.Running, m.Agent, m.HarnessID, m.Rule, m.Process.Comm, err)

	m, err = d.Detect(1 << 30) // no such shell
	fmt.Println(m.Running, m.Agent, err)
	// Output:
	// true true claude-code TUIOS_AGENT=claude-code sleep <nil>
	// false false <nil>
}
