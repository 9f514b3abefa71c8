package hosts

import "strings"

// Local is the host name that always means this machine.
const Local = "local"

// ValidName reports whether s can name a host: one or more letters,
// digits, '.', '-' or '_' (ASCII only, so a look-alike letter never names
// a different machine than the one the person read), not starting with
// '-' (a command line would read it as a flag).
func ValidName(s string) bool {
	if s == "" || len(s) > 255 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// Address is a parsed -s or -w target.
type Address struct {
	// Host is the host named before the first colon; "" when the target
	// is not host-qualified (it is this machine's). "local" is kept as
	// written so a caller can tell `local:x` from `x`.
	Host string
	// Session is the session part, passed verbatim to the host ("" for
	// the most recently active session).
	Session string
	// Window is the window part of a -w target (verbatim, colons kept).
	Window string
}

// Remote reports whether the address names another machine.
func (a Address) Remote() bool { return a.Host != "" && a.Host != Local }

// ParseSession reads a session target ("build", "lab:build"). The word before the first colon
// is a host when it is "local" or could be a host name; everything after
// the colon is the session, colons included. A target without a colon, or
// whose first word cannot be a host name, is a local session named by the
// whole string.
func ParseSession(s string) Address {
	host, rest, ok := strings.Cut(s, ":")
	if !ok || !ValidName(host) {
		return Address{Session: s}
	}
	return Address{Host: host, Session: rest}
}

// ParseWindow reads a window target ("lab:build:0"). A window is host-qualified only in
// the full three-part form HOST:SESSION:WINDOW, so a window whose title
// has one colon stays local. Decision the address form leaves open: a session
// part that starts with '/' is not a session but the "//" of a URL, so
// "https://example.com:8080/x" is a local window title, never host
// "https". A window on this machine whose name looks qualified is written
// local::NAME (session "" = the current one).
func ParseWindow(s string) Address {
	host, rest, ok := strings.Cut(s, ":")
	if !ok || !ValidName(host) {
		return Address{Window: s}
	}
	session, window, ok := strings.Cut(rest, ":")
	if !ok || strings.HasPrefix(session, "/") {
		return Address{Window: s}
	}
	return Address{Host: host, Session: session, Window: window}
}
