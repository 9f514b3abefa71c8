package daemon

import "time"

// stallFromEnv turns the value of TUIOS_AGENT_STALL_SECONDS into the
// tracker's StallAfter: empty is the default (0), "0" or a negative number
// is off (-1), anything unparsable is the default. Seconds are capped at
// 2^20.
func stallFromEnv(v string) time.Duration {
	if v == "" {
		return 0
	}
	n := 0
	neg := false
	for i, c := range v {
		switch {
		case i == 0 && c == '-':
			neg = true
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
			if n > 1<<20 {
				n = 1 << 20
			}
		default:
			return 0
		}
	}
	if neg || n == 0 {
		return -1
	}
	return time.Duration(n) * time.Second
}
