package detect

import "strings"

// herdrKinds are herdr's names for agents whose tuios harness id differs
// (herdr's `agent start --kind`, its agent_status "agent" field).
var herdrKinds = map[string]string{
	"claude":   "claude-code",
	"gemini":   "gemini-cli",
	"cursor":   "cursor-agent",
	"agy":      "antigravity",
	"qodercli": "qoder",
}

// HarnessForKind is the harness id an agent kind names: herdr's name for
// it (claude, gemini, cursor, agy, qodercli) or the id itself, trimmed
// and lowercased. Whether a manifest has that id is the registry's to say.
func HarnessForKind(kind string) string {
	k := strings.ToLower(strings.TrimSpace(kind))
	if id, ok := herdrKinds[k]; ok {
		return id
	}
	return k
}

// StartProgram is the program a harness runs as, for typing at a shell
// prompt: the first name its manifest recognises as argv[0], else its
// process name; "" when it names neither.
func (m *Manifest) StartProgram() string {
	for _, names := range [][]string{m.Detect.Argv0, m.Detect.Comm} {
		for _, n := range names {
			if n = strings.TrimSpace(n); n != "" {
				return n
			}
		}
	}
	return ""
}
