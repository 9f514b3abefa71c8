package tui

import (
	"path"
	"strings"
)

// Colouring the review's code by its file type: keywords, strings,
// comments and numbers in the terminal's palette (so the person's theme
// decides the colours), the rest in the line's own colour (green added,
// red removed, the terminal's for context). A line is read alone: a
// comment or string that spans lines is coloured only where the line
// opens it. It is a reading aid, not a parser; an unknown file type is
// drawn as before.

const (
	sgrKeyword = "\x1b[35m" // magenta
	sgrString  = "\x1b[33m" // yellow
	sgrComment = "\x1b[90m" // bright black
	sgrNumber  = "\x1b[34m" // blue
)

// syntax is what one file type's lines are read with.
type syntax struct {
	keywords   string // space-separated, with a space at each end
	lineOpen   string // a line comment's opener ("//", "#", "--")
	blockOpen  string // a block comment's opener and closer ("/*", "*/")
	blockClose string
	quotes     string // the characters that open a string
	foldCase   bool   // keywords match in any case (SQL)
}

// The keyword lists are strings, not maps: nothing is built at start-up.
const (
	kwGo   = " break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota "
	kwC    = " auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false NULL nullptr class namespace template typename public private protected virtual override new delete this using include define ifdef ifndef endif "
	kwJava = " abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new package private protected public return short static super switch synchronized this throw throws try void volatile while true false null fun val var when object data override func let struct protocol guard in is as "
	kwJS   = " async await break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new of return static super switch this throw try typeof var void while with yield true false null undefined interface type enum implements private public protected readonly as from "
	kwRust = " as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while "
	kwPy   = " and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield True False None self "
	kwRuby = " alias and begin break case class def defined do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield require "
	kwSh   = " if then else elif fi case esac for while until do done in function return local export readonly set unset shift exit break continue "
	kwConf = " true false null yes no on off "
	kwSQL  = " select from where insert into values update set delete create table index drop alter add join left right inner outer on as and or not null is in like order by group having limit offset primary key foreign references distinct union all case when then else end "
	kwLua  = " and break do else elseif end false for function goto if in local nil not or repeat return then true until while "
)

// syntaxOf is the syntax a file is read with, by its name; nil draws it
// plain.
func syntaxOf(name string) *syntax {
	base := path.Base(name)
	switch base {
	case "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", ".bashrc", ".zshrc", ".profile":
		return &syntax{keywords: kwSh, lineOpen: "#", quotes: `"'`}
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".go":
		return &syntax{keywords: kwGo, lineOpen: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'`"}
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m":
		return &syntax{keywords: kwC, lineOpen: "//", blockOpen: "/*", blockClose: "*/", quotes: `"'`}
	case ".java", ".kt", ".kts", ".scala", ".cs", ".swift", ".dart", ".groovy":
		return &syntax{keywords: kwJava, lineOpen: "//", blockOpen: "/*", blockClose: "*/", quotes: `"'`}
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return &syntax{keywords: kwJS, lineOpen: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'`"}
	case ".rs":
		return &syntax{keywords: kwRust, lineOpen: "//", blockOpen: "/*", blockClose: "*/", quotes: `"`}
	case ".py", ".pyi":
		return &syntax{keywords: kwPy, lineOpen: "#", quotes: `"'`}
	case ".rb", ".rake":
		return &syntax{keywords: kwRuby, lineOpen: "#", quotes: `"'`}
	case ".sh", ".bash", ".zsh", ".ksh", ".mk":
		return &syntax{keywords: kwSh, lineOpen: "#", quotes: `"'`}
	case ".toml", ".yaml", ".yml", ".ini", ".cfg", ".conf", ".properties", ".env":
		return &syntax{keywords: kwConf, lineOpen: "#", quotes: `"'`}
	case ".json":
		return &syntax{keywords: kwConf, quotes: `"`}
	case ".sql":
		return &syntax{keywords: kwSQL, lineOpen: "--", blockOpen: "/*", blockClose: "*/", quotes: `"'`, foldCase: true}
	case ".lua":
		return &syntax{keywords: kwLua, lineOpen: "--", quotes: `"'`}
	}
	return nil
}

// paint colours one line of code (already made safe by codeText); base is
// the line's own colour, put back after each token ("" for the
// terminal's).
func (s *syntax) paint(text, base string) string {
	if s == nil || text == "" {
		return text
	}
	back := base
	if back == "" {
		back = "\x1b[39m"
	}
	var b strings.Builder
	b.Grow(len(text) + 32)
	token := func(sgr, t string) { b.WriteString(sgr + t + back) }
	for i := 0; i < len(text); {
		c := text[i]
		rest := text[i:]
		switch {
		case s.lineOpen != "" && strings.HasPrefix(rest, s.lineOpen) && (s.lineOpen != "#" || i == 0 || text[i-1] == ' '):
			token(sgrComment, rest)
			return b.String()
		case s.blockOpen != "" && strings.HasPrefix(rest, s.blockOpen):
			end := len(rest)
			if j := strings.Index(rest[len(s.blockOpen):], s.blockClose); j >= 0 {
				end = len(s.blockOpen) + j + len(s.blockClose)
			}
			token(sgrComment, rest[:end])
			i += end
		case strings.IndexByte(s.quotes, c) >= 0:
			end := len(rest)
			for j := 1; j < len(rest); j++ {
				if rest[j] == '\\' && c != '`' {
					j++
					continue
				}
				if rest[j] == c {
					end = j + 1
					break
				}
			}
			token(sgrString, rest[:end])
			i += end
		case isWordByte(c):
			end := 1
			for end < len(rest) && (isWordByte(rest[end]) || (rest[0] >= '0' && rest[0] <= '9' && rest[end] == '.')) {
				end++
			}
			w := rest[:end]
			switch {
			case c >= '0' && c <= '9':
				token(sgrNumber, w)
			case s.isKeyword(w):
				token(sgrKeyword, w)
			default:
				b.WriteString(w)
			}
			i += end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func (s *syntax) isKeyword(w string) bool {
	if s.foldCase {
		w = strings.ToLower(w)
	}
	return strings.Contains(s.keywords, " "+w+" ")
}

// isWordByte is a byte of an identifier or a number; bytes of a multi-byte
// character count as one, so a word in any script stays whole.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
