package mux

import "strings"

// herdrInherited are the variables that name an outer herdr's pane: a
// tuios started inside a herdr pane never passes them on, so its panes do
// not report into that herdr (the herdr adapter sets its own).
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
