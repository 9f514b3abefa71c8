package herdr

import (
	"path/filepath"
	"strconv"

	"github.com/tuios/tuios/internal/daemon/core"
)

// The pane environment of herdr's integrations: HERDR_ENV,
// HERDR_SOCKET_PATH, HERDR_WORKSPACE_ID, HERDR_TAB_ID, HERDR_PANE_ID and
// HERDR_BIN_PATH, as herdr sets them; with them an agent that reports to
// herdr by itself reports to tuios.

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

// paneVars sets the herdr variables of a new pane in vars, when the
// socket is served and herdr_protocol allows them for the pane.
func (h *Sock) paneVars(ps core.PaneStart, vars map[string]string) {
	if !h.Live() {
		return // no herdr socket served: off, or a daemon not listening
	}
	switch h.mode() {
	case "agents":
		if !ps.Program || !herdrReporter(ps.Argv) {
			return
		}
	}
	ws := "w" + Hex(ps.Session)
	vars["HERDR_ENV"] = "1"
	vars["HERDR_SOCKET_PATH"] = h.path
	vars["HERDR_WORKSPACE_ID"] = ws
	vars["HERDR_TAB_ID"] = ws + ":t" + strconv.Itoa(ps.Workspace)
	vars["HERDR_PANE_ID"] = ws + ":p" + Hex(ps.Window)
	bin := h.bin
	if bin == "" {
		bin = h.core.Options().Executable
	}
	vars["HERDR_BIN_PATH"] = bin
}

// namesPane says whether a caller's herdr variables are ones this daemon
// gave a pane: HERDR_PANE_ID naming a live window, or this socket beside
// HERDR_ENV=1 (the socket named alone is what a person may export).
func (h *Sock) namesPane(vars map[string]string) bool {
	if v := vars["HERDR_PANE_ID"]; v != "" {
		for _, ss := range h.core.View(nil).Sessions {
			for _, w := range ss.Windows {
				if herdrNamesWindow(v, w.ID) {
					return true
				}
			}
		}
	}
	return vars["HERDR_ENV"] == "1" && vars["HERDR_SOCKET_PATH"] == h.path
}

// IsReporter says whether argv starts a program known to report to herdr
// by itself (herdrReporter).
func IsReporter(argv []string) bool { return herdrReporter(argv) }
