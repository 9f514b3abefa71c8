package daemon

import "testing"

func TestStallFromEnv(t *testing.T) {
	for v, want := range map[string]int64{"": 0, "0": -1, "-5": -1, "45": 45e9, "x": 0, "99999999999": 1 << 20 * 1e9} {
		if got := stallFromEnv(v); int64(got) != want {
			t.Errorf("stallFromEnv(%q) = %v", v, got)
		}
	}
}
