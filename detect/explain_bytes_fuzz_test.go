package detect

import (
	"strings"
	"sync"
	"testing"
)

var fuzzReg = sync.OnceValue(func() *Registry {
	reg, _ := Load(LoadOptions{NoUser: true})
	return reg
})

// ExplainBytes reads any bytes a program could write: it never panics,
// every rule is reported, and the explanation's text fences the pane's
// text so that none of it can move a terminal's cursor.
func FuzzExplainBytes(f *testing.F) {
	f.Add([]byte("\x1b]0;✳ Claude Code\x07 Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n"), "claude-code", 80, 24)
	f.Add([]byte("\x1b[?1049h\x1b[2J\x1b[10;5H╭──╮\r\n│ok│\r\n╰──╯\x1b]2;\x1b\\"), "crush", 20, 5)
	f.Add([]byte("\x1b[31mError\x1b[0m \xff\xfe\x00"), "codex", 0, 0)
	f.Fuzz(func(t *testing.T, data []byte, harness string, cols, rows int) {
		cols, rows = cols%300, rows%120 // Resize clamps; keep the fuzzer's screens small
		ex, err := fuzzReg().ExplainBytes(data, ExplainBytesOptions{Harness: harness, Cols: cols, Rows: rows})
		if err != nil {
			if _, ok := err.(*HarnessError); !ok {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		m, _ := fuzzReg().Lookup(harness)
		if len(ex.Rules) != len(m.Screen.Rules) || (ex.Rule >= 0) != (ex.RuleState != "") {
			t.Fatalf("%d reports for %d rules; rule %d state %q", len(ex.Rules), len(m.Screen.Rules), ex.Rule, ex.RuleState)
		}
		if ex.Matched && !ex.Enabled {
			t.Fatal("matched with the block off")
		}
		for _, line := range strings.Split(ex.String(), "\n") {
			if strings.ContainsAny(line, "\x1b\r\x07") {
				t.Fatalf("unescaped pane text in %q", line)
			}
		}
	})
}
