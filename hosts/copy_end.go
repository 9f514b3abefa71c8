package hosts

import "strings"

// SplitCopyEnd reads one end of a copy (tuios cp SRC DST), as scp does:
// "HOST:PATH" names PATH on a linked host, "local:PATH" and anything else
// name a path on this machine. The word before the first colon is a host
// only when it could be a host name and the end does not start with '/'
// or '.', so "/tmp/a:b" and "./a:b" are local files with a colon in their
// name. host is "" for this machine ("local" included); path is returned
// as written.
func SplitCopyEnd(s string) (host, path string) {
	if s == "" || s[0] == '/' || s[0] == '.' {
		return "", s
	}
	h, rest, ok := strings.Cut(s, ":")
	if !ok || !ValidName(h) {
		return "", s
	}
	if h == Local {
		return "", rest
	}
	return h, rest
}
