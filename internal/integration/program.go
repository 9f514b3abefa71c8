package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DefaultProgram is the tuios a new install's entries run: this binary,
// unless it is a `go run` build that will be gone, then the tuios on
// PATH, else the bare name. The CLI and the attach client's Agents tab
// install with it alike.
func DefaultProgram() string {
	self, err := os.Executable()
	if err == nil {
		if r, err := filepath.EvalSymlinks(self); err == nil {
			self = r
		}
	}
	if self == "" || strings.Contains(self, "/go-build") {
		if p, err := exec.LookPath("tuios"); err == nil {
			return p
		}
		return "tuios"
	}
	return self
}
