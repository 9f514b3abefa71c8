package vt

import "strconv"

// Progress is one OSC 9;4 progress report (ConEmu's and Windows
// Terminal's taskbar progress, which agents such as Claude Code write),
// with the agent state each state stands for:
//
//	State 0  remove / clear        (agent state idle)
//	State 1  set, determinate      (working)
//	State 2  error                 (errored)
//	State 3  indeterminate         (working)
//	State 4  paused / warning      (needs_input)
type Progress struct {
	State   int  // 0–4; meaningful only when Valid
	Percent int  // 0–100 (clamped); 0 when absent and always 0 for states 0 and 3
	Valid   bool // false: a malformed progress report that must be ignored
}

// ParseProgress parses the data of an OSC 9 sequence (the part after "9;").
//
// It is a progress report only if the payload is exactly "4", starts with
// "4;", or starts with "4" followed by BEL; anything else is an ordinary
// OSC 9 notification and ok is false. A bare "4" (or "4" + BEL) clears the
// progress (state 0). Otherwise the form is "4;<state>[;<percent>[;…]]":
// the state must be a decimal integer 0–4, else the report is returned with
// Valid false and must be ignored. The percent is clamped to 0–100; an
// absent, empty or non-numeric percent counts as 0, and fields after it are
// ignored. States 0 and 3 carry no percent.
func ParseProgress(payload string) (p Progress, ok bool) {
	switch {
	case payload == "4", len(payload) >= 2 && payload[0] == '4' && payload[1] == '\a':
		return Progress{State: 0, Valid: true}, true
	case len(payload) >= 2 && payload[0] == '4' && payload[1] == ';':
	default:
		return Progress{}, false
	}
	rest := payload[2:]
	stateField, rest, hasPercent := progressCut(rest, ';')
	state, good := progressUint(stateField)
	if !good || state > 4 {
		return Progress{}, true
	}
	p = Progress{State: state, Valid: true}
	if hasPercent && state != 0 && state != 3 {
		percentField, _, _ := progressCut(rest, ';')
		p.Percent = progressPercent(percentField)
	}
	return p, true
}

// Text is the osc_progress text form herdr keeps: "4;<state>" for states 0
// and 3, "4;<state>;<percent>" for 1, 2 and 4; "" for an invalid report.
func (p Progress) Text() string {
	if !p.Valid || p.State < 0 || p.State > 4 {
		return ""
	}
	s := "4;" + strconv.Itoa(p.State)
	if p.State == 0 || p.State == 3 {
		return s
	}
	return s + ";" + strconv.Itoa(p.Percent)
}

func progressCut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// progressUint parses a non-empty run of ASCII digits, saturating at a
// large value instead of overflowing.
func progressUint(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < 1<<20 {
			n = n*10 + int(c-'0')
		}
	}
	return n, true
}

// progressPercent parses an optionally signed decimal integer clamped to
// 0–100; anything else is 0.
func progressPercent(s string) int {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, ok := progressUint(s)
	if !ok || neg {
		return 0
	}
	return min(n, 100)
}
