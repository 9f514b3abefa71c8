package integration

import "strings"

// DoubleReporting finds hook entries that report twice: the old shell
// shim (integrations/claude-code in tuios's repository, which now runs
// tuios agent-hook itself) wired beside an installed integration.
func DoubleReporting(env Env) []string {
	var out []string
	for _, h := range Harnesses() {
		if h.hooks == nil {
			continue
		}
		text, exists, err := readFile(h.File(env))
		if err != nil || !exists || !strings.Contains(text, "integrations/"+h.ID) {
			continue
		}
		if installed, _, _, err := h.hooks.state(text, h.ID, h.Version); err == nil && installed {
			out = append(out, h.File(env)+" runs the old integrations/"+h.ID+" shim beside the installed integration: every event is reported twice; remove the shim's entries")
		}
	}
	return out
}
