package vt

// The escape-sequence parser: a DEC/VT500-style state machine after Paul
// Williams' description of the DEC parser (ground, escape,
// escape-intermediate, CSI entry/param/intermediate/ignore, DCS
// entry/param/intermediate/passthrough/ignore, OSC string, SOS/PM/APC
// string), driven by Screen.write.
//
// Screen.write keeps the ground state for itself: printable ASCII and UTF-8
// text are taken straight from the input there, C0 controls are executed
// and ESC enters the escape state. Everything else goes through
// Screen.sequence below, and OSC strings through Screen.oscBytes.
//
// The input is UTF-8. In the ground state bytes 0x80–0xff are text (a raw
// C1 byte, being invalid UTF-8, prints U+FFFD). Inside an escape or control
// sequence, a DCS header and a SOS/PM/APC string the 8-bit controls still
// act: 0x9b starts a CSI, 0x9d an OSC, 0x90 a DCS, 0x98/0x9e/0x9f a
// SOS/PM/APC string, the others (ST 0x9c among them) end what was being
// parsed. A UTF-8 lead byte there ends it too and is printed, with what
// follows, through the ground state (so it is segmented into grapheme
// clusters like any text); other bytes 0xa0–0xff end it and are dropped.
// A DCS string takes any byte up to ST (ESC \ or 0x9c; any ESC ends it),
// CAN or SUB. An OSC string takes any byte up to BEL or ESC \, or is
// cancelled by CAN or SUB: 0x9c is not a terminator there, as it is the
// middle byte of UTF-8 characters such as "✳" (e2 9c b3) in titles.
//
// This is what the table-driven parser of charmbracelet/x/ansi (which the
// package used before) does, except on malformed input, where this one
// follows the DEC machine, xterm and tmux: a private marker or parameter
// byte after the parameters or intermediates makes a CSI or DCS sequence
// ignored up to its final byte; ESC always starts a new sequence, also
// right after ESC P; C0 controls executed inside a sequence do not disturb
// it; parameter values saturate at paramMax instead of wrapping; at most
// maxParams parameters are kept; and a UTF-8 character after ESC is not
// decoded blindly (a bad continuation byte is not swallowed).

// Control characters.
const (
	ctlBEL = 0x07
	ctlBS  = 0x08
	ctlHT  = 0x09
	ctlLF  = 0x0a
	ctlVT  = 0x0b
	ctlFF  = 0x0c
	ctlCR  = 0x0d
	ctlSO  = 0x0e
	ctlSI  = 0x0f
	ctlCAN = 0x18
	ctlSUB = 0x1a
	ctlESC = 0x1b
	ctlDEL = 0x7f

	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

// pstate is a parser state.
type pstate uint8

const (
	stGround pstate = iota
	stEscape
	stEscInter
	stCSIEntry
	stCSIParam
	stCSIInter
	stCSIIgnore
	stDCSEntry
	stDCSParam
	stDCSInter
	stDCSPass
	stDCSIgnore
	stOSC
	stString // SOS, PM and APC strings, all ignored
)

// maxParams is the number of CSI parameters (sub-parameters included) kept;
// further ones are dropped.
const maxParams = 32

// paramMax is the largest parameter value; larger values read as paramMax.
const paramMax = 1 << 16

// seqCmd packs the final byte of an escape or control sequence with its
// private prefix ('<', '=', '>' or '?', CSI only) and its last intermediate
// byte (0x20–0x2f): final | prefix<<8 | intermediate<<16. A missing prefix
// or intermediate is 0.
type seqCmd uint32

func (c seqCmd) Final() byte        { return byte(c) }
func (c seqCmd) Prefix() byte       { return byte(c >> 8) }
func (c seqCmd) Intermediate() byte { return byte(c >> 16) }

// seqParam is one CSI parameter: its value, or paramMissing when it was
// empty, and in the top bit whether a ':' sub-parameter follows it.
type seqParam uint32

const (
	paramMore    seqParam = 1 << 31
	paramMissing seqParam = paramMore - 1
)

// Param returns the value, or def when the parameter was empty.
func (p seqParam) Param(def int) int {
	v := p &^ paramMore
	if v == paramMissing {
		return def
	}
	return int(v)
}

// HasMore reports that a ':' sub-parameter follows.
func (p seqParam) HasMore() bool { return p&paramMore != 0 }

// seqParams is the parameter list of one CSI sequence, sub-parameters
// included (each followed by its parent's HasMore).
type seqParams []seqParam

// Param returns parameter i (def when empty or absent), whether a
// sub-parameter follows it, and whether it is present.
func (ps seqParams) Param(i, def int) (int, bool, bool) {
	if i < 0 || i >= len(ps) {
		return def, false, false
	}
	return ps[i].Param(def), ps[i].HasMore(), true
}

// parser is the state of the sequence parser; the OSC payload itself is
// collected in Screen.osc.
type parser struct {
	state  pstate
	oscEsc bool // an ESC arrived inside an OSC string
	over   bool // more than maxParams parameters
	cmd    seqCmd
	n      int // parameters started
	params [maxParams]seqParam
}

// clear forgets the sequence being collected.
func (p *parser) clear() {
	p.cmd = 0
	p.n = 0
	p.over = false
}

// escape enters the escape state (ESC, from any state).
func (p *parser) escape() {
	p.clear()
	p.state = stEscape
}

// param collects a CSI parameter byte: a digit, ';' or ':'.
func (p *parser) param(b byte) {
	if p.over {
		return
	}
	if p.n == 0 {
		p.params[0] = paramMissing
		p.n = 1
	}
	cur := &p.params[p.n-1]
	if b <= '9' {
		v := *cur &^ paramMore
		if v == paramMissing {
			v = 0
		}
		v = v*10 + seqParam(b-'0')
		if v > paramMax {
			v = paramMax
		}
		*cur = *cur&paramMore | v
		return
	}
	if b == ':' {
		*cur |= paramMore
	}
	if p.n == maxParams {
		p.over = true
		return
	}
	p.params[p.n] = paramMissing
	p.n++
}

// startOSC enters the OSC string state.
func (s *Screen) startOSC() {
	s.ps.state = stOSC
	s.ps.oscEsc = false
	s.osc = s.osc[:0]
	s.oscOver = false
}

// sequence runs the parser over p[i:] while it is in an escape, control
// sequence, DCS or SOS/PM/APC state, dispatching what completes, and
// returns the index of the first byte it did not use (the parser is then
// in the ground or the OSC state, or p is used up).
func (s *Screen) sequence(p []byte, i int) int {
	ps := &s.ps
	for ; i < len(p); i++ {
		st := ps.state
		if st == stGround || st == stOSC {
			return i
		}
		b := p[i]
		if b >= 0x80 {
			if st == stDCSPass || st == stDCSIgnore {
				// DCS payloads may hold UTF-8; only ST ends them.
				if b == c1ST {
					ps.state = stGround
				}
				continue
			}
			switch {
			case b == c1CSI:
				ps.clear()
				ps.state = stCSIEntry
			case b == c1OSC:
				s.startOSC()
				return i + 1
			case b == c1DCS:
				ps.clear()
				ps.state = stDCSEntry
			case b == c1SOS || b == c1PM || b == c1APC:
				ps.state = stString
			case b >= 0xc2 && b <= 0xf4:
				// A UTF-8 character ends the sequence and is printed.
				ps.state = stGround
				return i
			default:
				// Other C1 controls (ST among them) end the sequence,
				// and bytes that cannot start a character are dropped.
				ps.state = stGround
			}
			continue
		}
		if b < 0x20 {
			switch b {
			case ctlESC:
				ps.escape()
			case ctlCAN, ctlSUB:
				ps.state = stGround
			default:
				if st <= stCSIIgnore {
					// Executed inside escape and control sequences,
					// ignored inside strings.
					s.execute(b)
				}
			}
			continue
		}
		if b == ctlDEL {
			continue
		}
		switch st {
		case stEscape:
			switch {
			case b < 0x30:
				ps.cmd = seqCmd(b) << 16
				ps.state = stEscInter
			case b == '[':
				ps.clear()
				ps.state = stCSIEntry
			case b == ']':
				s.startOSC()
				return i + 1
			case b == 'P':
				ps.clear()
				ps.state = stDCSEntry
			case b == 'X' || b == '^' || b == '_':
				ps.state = stString
			default:
				ps.state = stGround
				s.handleESC(ps.cmd | seqCmd(b))
				return i + 1
			}
		case stEscInter:
			if b < 0x30 {
				ps.cmd = seqCmd(b) << 16
				continue
			}
			ps.state = stGround
			s.handleESC(ps.cmd | seqCmd(b))
			return i + 1
		case stCSIEntry, stCSIParam:
			switch {
			case b >= 0x40:
				ps.state = stGround
				s.handleCSI(ps.cmd|seqCmd(b), ps.params[:ps.n])
				return i + 1
			case b >= '0' && b <= ';':
				ps.param(b)
				ps.state = stCSIParam
			case b >= '<':
				if st == stCSIEntry {
					ps.cmd |= seqCmd(b) << 8
					ps.state = stCSIParam
				} else {
					ps.state = stCSIIgnore
				}
			default: // 0x20–0x2f
				ps.cmd = ps.cmd&0xffff | seqCmd(b)<<16
				ps.state = stCSIInter
			}
		case stCSIInter:
			switch {
			case b >= 0x40:
				ps.state = stGround
				s.handleCSI(ps.cmd|seqCmd(b), ps.params[:ps.n])
				return i + 1
			case b >= 0x30:
				ps.state = stCSIIgnore
			default:
				ps.cmd = ps.cmd&0xffff | seqCmd(b)<<16
			}
		case stCSIIgnore:
			if b >= 0x40 {
				ps.state = stGround
			}
		case stDCSEntry, stDCSParam:
			switch {
			case b >= 0x40:
				ps.state = stDCSPass
			case b < 0x30:
				ps.state = stDCSInter
			case b >= '<' && st == stDCSParam:
				ps.state = stDCSIgnore
			default:
				ps.state = stDCSParam
			}
		case stDCSInter:
			switch {
			case b >= 0x40:
				ps.state = stDCSPass
			case b >= 0x30:
				ps.state = stDCSIgnore
			}
		case stDCSPass, stDCSIgnore, stString:
			// DCS, SOS, PM and APC payloads are not interpreted.
		}
	}
	return i
}
