package worktree

import (
	"strconv"
	"strings"
)

// SplitCommand reads an agent string ("claude --model sonnet") into words
// the way a POSIX shell splits them: blanks separate words; single quotes
// keep everything literally; double quotes keep everything but \", \\, \$
// and \` (and a backslash-newline, which is dropped); a backslash outside
// quotes keeps the next character. Nothing is expanded: $, `, globs, ~,
// redirections and ; | & ( ) are refused, since the agent runs directly
// and no shell would do what they ask.
func SplitCommand(s string) ([]string, error) {
	bad := func(why string) error {
		return errf(CodeInvalidParams, "write the agent as its program and arguments, such as 'claude --model sonnet': tuios runs it directly, no shell reads it",
			"agent", "%s in %q", why, clip(s, 80))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return nil, bad("a NUL byte")
	}
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, bad("an unclosed single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch s[i] {
				case '\\':
					if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
						i++
						if s[i] != '\n' {
							cur.WriteByte(s[i])
						}
						continue
					}
					cur.WriteByte('\\')
				case '$', '`':
					return nil, bad("a substitution (" + string(s[i]) + ")")
				default:
					cur.WriteByte(s[i])
				}
			}
			if i >= len(s) {
				return nil, bad("an unclosed double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, bad("a backslash at the end")
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				inWord = true
			}
		case strings.IndexByte("$`;|&<>()", c) >= 0:
			return nil, bad("the shell syntax " + strconv.Quote(string(c)))
		case c == '*' || c == '?' || c == '[':
			return nil, bad("a glob (" + string(c) + ")")
		case c == '~' && !inWord:
			return nil, bad("a ~ to expand")
		case c == '#' && !inWord:
			return nil, bad("a comment (#)")
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errf(CodeInvalidParams, "name an agent, such as claude or 'codex --model o3'", "agent", "the agent is empty")
	}
	return words, nil
}

// SplitAgents reads --agent's list: agents separated by commas outside
// quotes, each split by SplitCommand. An empty entry is refused.
func SplitAgents(list string) ([][]string, error) {
	var parts []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(list); i++ {
		c := list[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(list) {
				cur.WriteByte(c)
				i++
				c = list[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(list):
			cur.WriteByte(c)
			i++
			c = list[i]
		case c == ',':
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	parts = append(parts, cur.String())
	out := make([][]string, 0, len(parts))
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, errf(CodeInvalidParams, "list agents separated by commas, such as claude,codex", "agent", "an empty agent in %q", clip(list, 80))
		}
		w, err := SplitCommand(p)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}
