package inbox

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/safetext"
)

// Limits of the text an item carries.
const (
	MaxSummaryBytes = 160 // one summary, cut on a rune boundary
	MaxAskOptions   = 9   // answers of an ask-human question
	MaxOptionBytes  = 60  // one answer
	Redacted        = "[redacted]"
)

// CleanSummary is the line a row shows for text that came from a pane,
// an agent or another machine: one line, whitespace collapsed, control and
// format characters (bidi, zero-width) removed, likely secrets masked
// (key=value where the key names a token, secret, password, api key,
// access key, private key or credential, the word after "Bearer", and
// whatever agentstate.MaskSecrets finds) as "[redacted]", cut to
// MaxSummaryBytes on a rune boundary. Clean text comes back as it is.
func CleanSummary(s string) string {
	if plainLine(s, MaxSummaryBytes) && !hasSecret(s) {
		return s
	}
	c := cut(mask(safetext.OneLine(s)), MaxSummaryBytes)
	// A cut can expose a secret (a quote cut off a long key): mask again
	// until nothing changes.
	for i := 0; i < 4; i++ {
		m := mask(c)
		if m == c {
			break
		}
		c = cut(m, MaxSummaryBytes)
	}
	return c
}

// plainLine reports whether s is printable ASCII with single inner spaces,
// no longer than n: such text needs no cleaning, only the secret check.
func plainLine(s string, n int) bool {
	if len(s) > n || s == "" {
		return s == ""
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || (c == ' ' && s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// cut shortens s to n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " ")
}

// secretNames are the key words that make key=value a secret.
var secretNames = [...]string{"token", "secret", "password", "passwd", "apikey", "api_key", "accesskey", "access_key",
	"privatekey", "private_key", "credential", "authorization"}

// isSecretName reports whether an assignment's key names a secret.
func isSecretName(key string) bool {
	key = strings.ToLower(strings.Trim(key, `"'-$`))
	key = strings.ReplaceAll(key, "-", "_")
	if key == "" {
		return false
	}
	for _, n := range secretNames {
		if strings.Contains(key, n) {
			return true
		}
	}
	return false
}

func isBearer(w string) bool { return strings.EqualFold(strings.Trim(w, `"'`), "bearer") }

// hasSecret is the cheap check for clean text: does anything mask?
func hasSecret(s string) bool {
	return mask(s) != s
}

// mask masks secrets in a collapsed line, words kept one for one.
func mask(s string) string {
	if s == "" {
		return s
	}
	words := strings.Split(s, " ")
	mine := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if m, ok := maskAssignments(w); ok {
			words[i], mine = m, true
			continue
		}
		if j := strings.IndexByte(w, ':'); j > 0 && j == len(w)-1 && isSecretName(w[:j]) && i+1 < len(words) {
			// "password: hunter2", "Authorization: Bearer x"
			if isBearer(words[i+1]) {
				continue // the Bearer rule masks the word after it
			}
			words[i+1] = redactWord(words[i+1])
			mine = true
			i++
			continue
		}
		if isBearer(w) && i+1 < len(words) {
			words[i+1] = redactWord(words[i+1])
			mine = true
			i++
		}
	}
	out := s
	if mine {
		out = strings.Join(words, " ")
	}
	masked := agentstate.MaskSecrets(out)
	if masked == out {
		return out
	}
	// Speak the one word for a mask, keeping what this pass already said.
	theirs := strings.Split(masked, " ")
	if len(theirs) != len(words) {
		return strings.ReplaceAll(masked, "****", Redacted)
	}
	for i, t := range theirs {
		if t == words[i] {
			continue
		}
		switch {
		case strings.Contains(words[i], Redacted):
			theirs[i] = words[i]
		case isBearer(words[i]) && i+1 < len(words) && strings.Contains(words[i+1], Redacted):
			theirs[i] = words[i]
		default:
			theirs[i] = strings.ReplaceAll(t, "****", Redacted)
		}
	}
	return strings.Join(theirs, " ")
}

// maskAssignments masks the values of secret assignments inside one
// word: KEY=value anywhere in it (a flag, an environment variable, a URL's
// query), and KEY:value when the colon is the word's first and no URL
// follows it.
func maskAssignments(w string) (string, bool) {
	changed := false
	for i := 1; i < len(w); i++ {
		if w[i] != '=' {
			continue
		}
		k := i
		for k > 0 && isKeyByte(w[k-1]) {
			k--
		}
		end := i + 1
		for end < len(w) && !strings.ContainsRune("&\"';,)", rune(w[end])) {
			end++
		}
		if k == i || end == i+1 || w[i+1:end] == Redacted || !isSecretName(w[k:i]) {
			continue
		}
		w = w[:i+1] + Redacted + w[end:]
		i += len(Redacted)
		changed = true
	}
	if j := strings.IndexByte(w, ':'); j > 0 && j < len(w)-1 && w[j+1] != '/' && !strings.ContainsRune(w[:j], '=') && isSecretName(w[:j]) {
		end := len(w)
		for end > j+1 && strings.ContainsRune("\"',;)", rune(w[end-1])) {
			end--
		}
		if end > j+1 && w[j+1:end] != Redacted {
			w = w[:j+1] + Redacted + w[end:]
			changed = true
		}
	}
	return w, changed
}

func isKeyByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// redactWord replaces a word, keeping the quotes and punctuation around it.
func redactWord(w string) string {
	core := strings.Trim(w, `"'(),;`)
	if core == "" || core == Redacted {
		return w
	}
	i := strings.Index(w, core)
	return w[:i] + Redacted + w[i+len(core):]
}

// ValidateAsk checks an ask-human question and its answers: the question
// is one printable line of at most MaxSummaryBytes that the Inbox shows
// exactly as written (nothing cut, collapsed or masked); the answers are 1
// to MaxAskOptions printable lines of at most MaxOptionBytes, none
// repeated. A refusal is an *Error with CodeInvalidParams naming the param.
func ValidateAsk(question string, options []string) error {
	if strings.TrimSpace(question) == "" {
		return invalid(WhyBadQuestion, "question", "ask something", "the question is blank")
	}
	if len(question) > MaxSummaryBytes {
		return invalid(WhyBadQuestion, "question", "shorten the question; mail the detail",
			fmt.Sprintf("the question is %d bytes, over %d", len(question), MaxSummaryBytes))
	}
	if CleanSummary(question) != question {
		return invalid(WhyBadQuestion, "question", "one line of printable text, single spaces, no secrets",
			"the question would not be shown exactly as written")
	}
	if len(options) == 0 || len(options) > MaxAskOptions {
		return invalid(WhyBadOptions, "options", "give 1 to 9 answers",
			fmt.Sprintf("%d answers; a question takes 1 to %d", len(options), MaxAskOptions))
	}
	for i, o := range options {
		if strings.TrimSpace(o) == "" || len(o) > MaxOptionBytes || CleanSummary(o) != o {
			return invalid(WhyBadOptions, "options", "each answer is one printable line of at most 60 bytes",
				fmt.Sprintf("answer %d (%q) cannot be shown as written", i+1, o))
		}
		for _, p := range options[:i] {
			if p == o {
				return invalid(WhyBadOptions, "options", "give each answer once", fmt.Sprintf("the answer %q is given twice", o))
			}
		}
	}
	return nil
}
