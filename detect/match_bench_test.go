package detect

import "testing"

// BenchmarkIdentify is the CPU cost of matching one process's own identity
// against every shipped manifest and the name list (no /proc reads).
func BenchmarkIdentify(b *testing.B) {
	reg, _ := Load(LoadOptions{NoUser: true})
	d := NewDetector(DetectorOptions{Registry: reg})
	for _, c := range []struct {
		name string
		p    ProcInfo
	}{
		{"sleep", ProcInfo{Comm: "sleep", Argv: []string{"sleep", "1000"}, Exe: "/usr/bin/sleep"}},
		{"node-claude", ProcInfo{Comm: "node", Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, Exe: "/usr/bin/node"}},
		{"claude", ProcInfo{Comm: "claude", Argv: []string{"claude"}, Exe: "/home/u/.local/share/claude/versions/2.1.222"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.identify(newView(c.p), nil)
			}
		})
	}
}
