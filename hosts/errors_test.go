package hosts

import "testing"

func TestFarSaidIsItsFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"tuios: no daemon at /run/x/s.sock\nhint: start one with `tuios daemon`\n": "tuios: no daemon at /run/x/s.sock",
		"\n  sh: tuios: not found  \n":                                             "sh: tuios: not found",
		"":                                                                         "it printed nothing",
	} {
		if got := farSaid(in); got != want {
			t.Errorf("farSaid(%q) = %q, want %q", in, got, want)
		}
	}
}
