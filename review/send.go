package review

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxMessageBytes is the largest review message: a queued entry's size.
const MaxMessageBytes = 16 << 10

// maxQuote is how much of a note's line the message quotes.
const maxQuote = 120

// SendNote is a note as the message shows it: the note and, when it was
// written by someone other than the sender and the person sends it, who
// wrote it ("pane lead").
type SendNote struct {
	Note
	WrittenBy string
}

// Message is what ComposeMessage reads.
type Message struct {
	// Base is the diff's base name ("main", "HEAD").
	Base string
	// Sender is "the person", "pane NAME", "a caller on HOST" or "a script".
	Sender string
	Notes  []SendNote
}

// ComposeMessage writes the one message send-review queues for the agent:
// a header naming the base and the sender, the notes numbered by file then
// line (quotes clipped to 120 characters, control characters removed,
// secrets masked), and a footer asking the agent to answer each.
func ComposeMessage(m Message) (string, error) {
	if len(m.Notes) == 0 {
		return "", errf(codeNoNotes, "add a note first: tuios review note FILE:LINE TEXT", "", "there are no unsent notes to send")
	}
	notes := make([]Note, len(m.Notes))
	by := map[string]string{}
	for i, n := range m.Notes {
		notes[i] = n.Note
		by[n.ID] = n.WrittenBy
	}
	SortNotes(notes)
	var b strings.Builder
	fmt.Fprintf(&b, "Review notes on your changes (vs %s), from %s:\n", oneLine(m.Base), oneLine(m.Sender))
	for i, n := range notes {
		b.WriteString("\n")
		fmt.Fprintf(&b, "%d. ", i+1)
		if n.HunkHeader != "" {
			fmt.Fprintf(&b, "%s, hunk %s", oneLine(n.Path), oneLine(clipRunes(MaskSecrets(n.HunkHeader), maxQuote)))
		} else {
			where := n.Path + ":" + fmt.Sprint(n.Line)
			if n.Side == SideOld {
				where += " (old side)"
			}
			fmt.Fprintf(&b, "%s, on %q", oneLine(where), clipRunes(MaskSecrets(oneLine(n.Quote)), maxQuote))
		}
		if n.Outdated {
			b.WriteString(" (outdated: the line is no longer there)")
		}
		if w := by[n.ID]; w != "" {
			fmt.Fprintf(&b, " (written by %s, not by the person)", oneLine(w))
		}
		b.WriteString("\n")
		for _, l := range strings.Split(strings.TrimRight(n.Text, "\n"), "\n") {
			b.WriteString("   " + stripControls(l) + "\n")
		}
	}
	b.WriteString("\nAddress each note, then say which you changed.\n")
	if b.Len() > MaxMessageBytes {
		return "", errf(codeInvalidParam, "send fewer notes at once (--id)", "ids", "the message is %d bytes; a queued message holds at most %d", b.Len(), MaxMessageBytes)
	}
	return b.String(), nil
}

// oneLine removes control characters, newlines included.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
}

// stripControls removes control characters but keeps tabs.
func stripControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// secretPrefixes start tokens that are credentials (cloud and forge keys).
func secretPrefix(w string) bool {
	for _, p := range [...]string{"AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "sk-", "xoxb-", "xoxp-", "xoxa-", "AIza", "-----BEGIN"} {
		if strings.HasPrefix(w, p) && len(w) >= len(p)+8 {
			return true
		}
	}
	return false
}

// secretKey says a name holds a secret (password=…, API_KEY: …).
func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range [...]string{"password", "passwd", "secret", "token", "api_key", "apikey", "private_key", "access_key", "auth"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// MaskSecrets replaces what looks like a credential in a quoted line with
// ****: words starting like a known key, and the value after a name that
// says it holds a secret (password = "…", token: …). A quote goes to an
// agent and may be logged; a missed secret would travel with it.
func MaskSecrets(s string) string {
	var b strings.Builder
	i := 0
	maskNext := false
	for i < len(s) {
		// A word: a run of characters that are not space, quote,
		// separator or bracket.
		j := i
		for j < len(s) && !isSep(s[j]) {
			j++
		}
		if j == i { // separators are kept; a pending mask waits for the value
			b.WriteByte(s[i])
			i++
			continue
		}
		w := s[i:j]
		switch {
		case maskNext || secretPrefix(w):
			b.WriteString("****")
			maskNext = false
		default:
			b.WriteString(w)
			maskNext = secretKey(w) && nextIsAssign(s[j:])
		}
		i = j
	}
	return b.String()
}

func isSep(c byte) bool {
	return strings.IndexByte(" \t\"'`=:,;()[]{}<>", c) >= 0
}

// nextIsAssign says the text after a name assigns it (= or :, maybe
// spaced, maybe quoted).
func nextIsAssign(s string) bool {
	s = strings.TrimLeft(s, " \t\"'")
	return strings.HasPrefix(s, "=") || strings.HasPrefix(s, ":")
}
