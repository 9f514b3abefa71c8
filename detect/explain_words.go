package detect

import (
	"strings"

	"github.com/tuios/tuios/agentstate"
)

// evidenceWords says how strong the evidence a match rule read is, naming
// the kind actually read: a path on the command line is not a process
// name. rule is a manifest rule ("comm=codex", "argv_path=…") or a name
// list rule ("name exe=codex"), as Match.Rule holds it.
func evidenceWords(rule string) string {
	kind := strings.TrimPrefix(rule, "name ")
	switch {
	case strings.Contains(kind, "run token"):
		return "The script an interpreter runs is strong evidence."
	case strings.HasPrefix(kind, "comm="):
		return "A process name is strong evidence."
	case strings.HasPrefix(kind, "argv0="):
		return "The name a program was started as is strong evidence."
	case strings.HasPrefix(kind, "exe="):
		return "An executable's name is strong evidence."
	case strings.HasPrefix(kind, "exe_glob="):
		return "An executable's path is strong evidence."
	case strings.HasPrefix(kind, "argv_path="), strings.HasPrefix(kind, "package="):
		return "A package path the program runs from is strong evidence."
	}
	return "What the process is named is strong evidence."
}

// shellNames are the interactive shells a pane starts: a pane whose own
// process is one of them, with no script or -c, sits at its prompt.
var shellNames = [...]string{"sh", "bash", "zsh", "fish", "dash", "ash", "ksh", "mksh", "tcsh", "csh", "nu", "elvish", "xonsh", "pwsh", "yash"}

// ownProcessVerdict is the verdict for a pane whose foreground is its own
// process and no agent: at its shell prompt only when that process is an
// interactive shell; a shell running a script, or any other program the
// pane was started with, is named.
func ownProcessVerdict(v *procView, label string) string {
	shell := false
	for _, n := range []string{v.comm, v.argv0, v.exeBase} {
		if n != "" && nameIn(shellNames[:], n) {
			shell = true
		}
	}
	if !shell {
		return "This pane runs " + label + ", the program it was started with. It runs no agent."
	}
	args := v.p.Argv[min(1, len(v.p.Argv)):]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case shellOptionTakesValue(a):
			i++ // --rcfile FILE is no script
		case a == "-c" || len(a) >= 2 && len(a) <= 4 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c"):
			return "This pane runs a shell command (" + label + "). It runs no agent."
		case a == "" || a[0] == '-' || a[0] == '+':
		default:
			by := v.exeBase
			if by == "" {
				by = label
			}
			return "This pane runs the script " + a + " (with " + by + "). It runs no agent."
		}
	}
	return atPrompt
}

// atPrompt is the verdict for a pane at its shell prompt.
const atPrompt = "This pane is at its shell prompt. It runs no agent."

// DetectionOff notes that the owner has turned automatic detection off (a
// Tracker with a negative DetectInterval; in tuios, [daemon]
// agent_autodetect = false): what the explanation read live does not make
// the pane an agent; only the agent's own reports do.
func (x *Explanation) DetectionOff() {
	x.Detection = "off"
	switch {
	case x.Identity == agentstate.IdentityReport:
		x.Verdict += " Detection is off; the pane counts as an agent by its own report."
	case x.Matched:
		x.Verdict += " Detection is off, so this does not make the pane an agent; only the agent's own reports (its hooks, set-agent-state) do."
	default:
		x.Verdict += " Detection is off."
	}
	x.Evidence = append(x.Evidence, "Automatic detection is off ([daemon] agent_autodetect = false or TUIOS_AGENT_AUTODETECT=0): the daemon does not read the pane's foreground on its own.")
}

// shellOptionTakesValue: the shell options whose next word is their
// value, not a script to run.
func shellOptionTakesValue(a string) bool {
	switch a {
	case "--rcfile", "--init-file", "-o", "+o", "-O", "+O", "-C", "--init-command", "--command", "--config", "--env-config":
		return true
	}
	return false
}
