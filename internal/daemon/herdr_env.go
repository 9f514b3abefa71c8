package daemon

import (
	"path/filepath"
	"strconv"
	"strings"
)

// The pane environment of herdr's integrations (coordination spec §18.3):
// with it an agent that reports to herdr by itself reports to tuios.

// herdrInherited are the variables that name an outer herdr's pane: a
// tuios started inside a herdr pane never passes them on, so its panes do
// not report into that herdr.
func herdrInherited(key string) bool {
	switch key {
	case "HERDR_ENV", "HERDR_PANE_ID", "HERDR_TAB_ID", "HERDR_WORKSPACE_ID":
		return true
	}
	return false
}

// withoutHerdrIDs is env less an outer herdr's pane ids.
func withoutHerdrIDs(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if herdrInherited(k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// herdrReporter says whether argv starts a program known to report to
// herdr by itself (the agents page names Crush, Kiro CLI, Command Code,
// Muse Code and Prime Agent; the binary names besides crush and kiro-cli
// are the projects' published command names as best known). Under
// herdr_protocol = "agents" only such panes get herdr's variables.
func herdrReporter(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch filepath.Base(argv[0]) {
	case "crush", "kiro-cli", "kiro", "command-code", "commandcode", "cmd-code", "muse", "muse-code", "prime", "prime-agent":
		return true
	}
	return false
}

// herdrVars sets the herdr variables of a new pane in vars, when
// herdr_protocol allows them for it.
func (s *Server) herdrVars(vars map[string]string, sessID, windowID string, workspace int, argv []string, program bool) {
	if s.herdr == nil || !s.herdr.live() {
		return // no herdr socket served: off, or a daemon not listening
	}
	switch s.herdr.mode() {
	case "agents":
		if !program || !herdrReporter(argv) {
			return
		}
	}
	ws := "w" + herdrHex(sessID)
	vars["HERDR_ENV"] = "1"
	vars["HERDR_SOCKET_PATH"] = s.herdr.path
	vars["HERDR_WORKSPACE_ID"] = ws
	vars["HERDR_TAB_ID"] = ws + ":t" + strconv.Itoa(workspace)
	vars["HERDR_PANE_ID"] = ws + ":p" + herdrHex(windowID)
	bin := s.herdr.bin
	if bin == "" {
		bin = s.opt.Executable
	}
	vars["HERDR_BIN_PATH"] = bin
}
