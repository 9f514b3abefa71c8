package daemon

import (
	"path/filepath"

	"github.com/tuios/tuios/internal/daemon/agentlog"
	"github.com/tuios/tuios/internal/daemon/herdr"
	"github.com/tuios/tuios/internal/daemon/resume"
)

// What the tests here used of the features while they were part of this
// package: internal/daemon/herdr, internal/daemon/agentlog and
// internal/daemon/resume now.

var herdrHex = herdr.Hex

const codeNotResumable = resume.CodeNotResumable

type herdrErr = herdr.Err

const herdrCrashAge = herdr.CrashAge

// herdrDirs are herdr's direction names in the order pane.edges lists
// them.
var herdrDirs = []string{"left", "right", "up", "down"}

// herdrPaneInfo is a pane as herdr's answers describe it.
type herdrPaneInfo = herdr.PaneInfo

// realPath resolves symlinks where it can, so a checkout and a cwd
// compare.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// logEntry is an agent-log entry (internal/daemon/agentlog).
type logEntry = agentlog.Entry

// What the transcript tests read of agent-transcript's answers.
type (
	agentTranscriptResult = agentlog.TranscriptResult
	transcriptEntry       = agentlog.TranscriptEntry
)

const (
	codeNoTranscript   = agentlog.CodeNoTranscript
	codeTranscriptPath = agentlog.CodeTranscriptPath
)
