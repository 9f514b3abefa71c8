package mux

import (
	"strings"
	"testing"
)

// FuzzRunCommandName: whatever a caller sends as a command name resolves
// to one of the commands or to none, and each command's two spellings
// resolve to it.
func FuzzRunCommandName(f *testing.F) {
	for _, s := range []string{"", "ToggleZoom", "toggle_zoom", "focus_next", "_", "Toggle_Zoom", "TOGGLEZOOM", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tape := tapeName(s)
		if tape == "" {
			return
		}
		if _, ok := runCommands[tape]; !ok {
			t.Fatalf("%q resolved to %q, not a command", s, tape)
		}
		if s != tape && s != keymapName(tape) {
			t.Fatalf("%q resolved to %q but is neither of its names", s, tape)
		}
	})
}

func TestRunCommandKeymapNames(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for n := range runCommands {
		k := keymapName(n)
		if tapeName(k) != n || tapeName(n) != n || seen[k] || strings.ToLower(k) != k {
			t.Fatalf("%s: keymap name %q", n, k)
		}
		seen[k] = true
	}
	if keymapName("ToggleZoom") != "toggle_zoom" || keymapName("NextWorkspace") != "next_workspace" {
		t.Fatal("keymap spelling")
	}
}
