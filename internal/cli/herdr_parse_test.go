package cli

import (
	"math"
	"strings"
	"testing"
)

// herdr pane split --ratio takes a fraction (the share the pane keeps,
// herdr's meaning) and refuses what is not a finite number.
func TestHerdrPaneSplitRatio(t *testing.T) {
	cmd := herdrCommands()["pane split"]
	p, err := herdrParse(cmd, []string{"w1:p1", "--direction", "down", "--ratio", "0.25"})
	if err != nil || p["ratio"] != 0.25 || p["direction"] != "down" || p["pane_id"] != "w1:p1" {
		t.Fatalf("pane split: %v %v", p, err)
	}
	if p, err := herdrParse(cmd, []string{"w1:p1", "--ratio=0.5"}); err != nil || p["ratio"] != 0.5 {
		t.Fatalf("--ratio=0.5: %v %v", p, err)
	}
	for _, bad := range []string{"half", "NaN", "Inf", "-Inf", ""} {
		if _, err := herdrParse(cmd, []string{"w1:p1", "--ratio", bad}); err == nil {
			t.Fatalf("--ratio %q was taken", bad)
		}
	}
}

// FuzzHerdrParse: whatever argv the herdr link is given, parsing never
// panics, and a number it passes on is finite.
func FuzzHerdrParse(f *testing.F) {
	for _, s := range []string{"pane split\x00w1:p1\x00--ratio\x000.3", "pane read\x00p\x00--lines\x0040", "pane run\x00p\x00echo\x00hi", "pane split\x00--ratio=1e400"} {
		f.Add(s)
	}
	cmds := herdrCommands()
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		name, rest := args[0], args[1:]
		cmd, ok := cmds[name]
		if !ok {
			cmd = cmds["pane split"]
			rest = args
		}
		p, err := herdrParse(cmd, rest)
		if err != nil {
			return
		}
		for k, v := range p {
			if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				t.Fatalf("%s = %v", k, x)
			}
		}
	})
}
