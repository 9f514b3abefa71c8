package agentproto

import (
	"errors"
	"strings"
)

// SplitCommand splits an agent command the way a POSIX shell splits
// words, without running anything: blanks separate words, single quotes
// keep everything to the next one, double quotes keep everything but a
// backslash before " \ $ ` and newline, a backslash outside quotes keeps
// the next character. Nothing is expanded ($VAR, globs, ~ stay as they
// are). An unclosed quote, a trailing backslash, a NUL byte or more than
// 256 words is an error.
func SplitCommand(s string) ([]string, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, errors.New("the command holds a NUL byte")
	}
	var words []string
	var cur strings.Builder
	in := false // a word is open
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("the command has an unclosed single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("the command has an unclosed double quote")
			}
			in = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("the command ends in a backslash")
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
			}
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
		if len(words) > 256 {
			return nil, errors.New("the command has more than 256 words")
		}
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) > 256 {
		return nil, errors.New("the command has more than 256 words")
	}
	return words, nil
}
