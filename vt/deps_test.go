package vt

import (
	"os/exec"
	"strings"
	"testing"
)

// The package must stay cheap to start: these dependencies have costly
// init functions (go-runewidth's tables alone take tens of milliseconds)
// or are not needed. The subpackages of x/ansi are not forbidden, only the
// top-level package, which pulls in go-runewidth.
func TestNoHeavyDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/tuios/tuios/vt").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	forbidden := map[string]bool{
		"github.com/charmbracelet/x/ansi":    true,
		"github.com/mattn/go-runewidth":      true,
		"github.com/rivo/uniseg":             true,
		"github.com/lucasb-eyer/go-colorful": true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if forbidden[dep] {
			t.Errorf("vt depends on %s", dep)
		}
	}
}
