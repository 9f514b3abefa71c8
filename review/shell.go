package review

import (
	"strings"
	"unicode/utf8"
)

// Limits of the shell-line reader.
const (
	// MaxReadBytes is how much of a command line is read. Anything past it
	// is not looked at, and the result carries the "cut short" hit.
	MaxReadBytes = 64 << 10
	// MaxDepth is how deep nested command lines ($( ), backticks, <( ),
	// sh -c, eval, env -S, here-documents) are read. Text nested deeper is not
	// read and the result carries the "cut short" hit.
	MaxDepth = 4
	// ClipRunes is the length, in characters, that a hit's text is clipped to.
	ClipRunes = 100
)

// command is one simple command read from a line: its raw text and what it
// would run once the words in front of it (reserved words, assignments,
// wrappers) are taken away.
type command struct {
	line       string // the line the command was read from
	start, end int    // raw span of the command in line
	args       []string
	writes     []string // write-redirect targets
	sudo       bool     // unwrapped from sudo or doas
	pipe       int      // pipeline id, unique per reader
	feeder     *command // the command that runs this one's text (bash <(…), eval "$(…)")
	heredoc    string   // the bodies of its here-documents
	prog       string   // base name of args[0]
}

func (c *command) raw() string { return strings.TrimSpace(c.line[c.start:c.end]) }

// reader reads a command line into commands. It never runs anything.
type reader struct {
	cmds  []*command
	pipes int
	deep  bool // something was nested deeper than MaxDepth and not read
	buf   []byte
	block []command // commands are allocated from blocks, never moved
}

// newCommand returns a zeroed command from the current block.
func (r *reader) newCommand() *command {
	if len(r.block) == cap(r.block) {
		r.block = make([]command, 0, min(max(4, 2*cap(r.block)), 512))
	}
	r.block = r.block[:len(r.block)+1]
	return &r.block[len(r.block)-1]
}

// read reads a whole line. The caller has already cut it to MaxReadBytes.
func (r *reader) read(line string) {
	r.readLine(line, 0, 0, false)
}

// heredoc is a here-document whose body has not been read yet.
type heredoc struct {
	delim  string
	strip  bool     // <<- : leading tabs are stripped from the body's lines
	quoted bool     // the delimiter was quoted: no substitutions in the body
	owner  *command // the command it feeds; nil until its segment ends
	seg    bool     // still waiting for its segment to end
}

// seg holds the state of the segment being read.
type seg struct {
	start   int
	first   int // index in r.cmds of the first command read inside this segment
	words   []string
	writes  []string
	inWord  bool
	wordPos int  // where the word being read starts in the line
	quoted  bool // the word being read has a quoted part (or a line continuation)
	pending byte // what the next word is: 'w' write target, 'r' read source, 'd' dup target, 'h' here-document delimiter
	strip   bool // the pending here-document is <<-
	quoted0 bool // the last word read had a quoted part
}

// readLine reads the line s from position i at the given depth. When nested
// is true (the content of $( ) or <( )), it stops after the unmatched ')' and
// returns the position just past it; otherwise it reads to the end of s.
func (r *reader) readLine(s string, i, depth int, nested bool) int {
	n := len(s)
	r.pipes++
	pipe := r.pipes
	open := 0 // subshells opened inside this line
	sg := seg{start: i, first: len(r.cmds)}
	wordStart := len(r.buf)
	var docs []heredoc // here-documents whose bodies start after the next newline

	endWord := func() {
		if !sg.inWord {
			return
		}
		// A word with no quoting is written in the line as it reads: take it
		// from there instead of copying the buffer.
		var w string
		if size := len(r.buf) - wordStart; !sg.quoted && sg.wordPos+size <= len(s) {
			w = s[sg.wordPos : sg.wordPos+size]
		} else {
			w = string(r.buf[wordStart:])
		}
		r.buf = r.buf[:wordStart]
		sg.quoted0 = sg.quoted
		sg.inWord, sg.quoted = false, false
		switch sg.pending {
		case 'w':
			sg.writes = append(sg.writes, w)
		case 'd':
			if !isDigits(w) && w != "-" {
				sg.writes = append(sg.writes, w)
			}
		case 'r':
			// an input file is not an argument
		case 'h':
			docs = append(docs, heredoc{delim: w, strip: sg.strip, quoted: sg.quoted0, seg: true})
		default:
			sg.words = append(sg.words, w)
		}
		sg.pending = 0
	}
	// endSeg ends the segment at position end. newPipe starts a new pipeline
	// for the next segment.
	endSeg := func(end int, newPipe bool) {
		endWord()
		c := r.finish(s, sg.start, end, sg.words, sg.writes, pipe, sg.first, depth)
		for k := range docs {
			if docs[k].seg {
				docs[k].owner, docs[k].seg = c, false
			}
		}
		sg = seg{first: len(r.cmds)}
		if newPipe {
			r.pipes++
			pipe = r.pipes
		}
	}
	inWord := func(at int) {
		if !sg.inWord {
			sg.inWord, sg.wordPos = true, at
		}
	}

	for i < n {
		ch := s[i]
		switch ch {
		case ' ', '\t', '\r':
			endWord()
			i++
			continue
		case '\n', ';':
			endSeg(i, true)
			i++
			if ch == '\n' && len(docs) > 0 {
				i = r.heredocs(s, i, depth, docs)
				docs = docs[:0]
			}
		case '#':
			if sg.inWord {
				inWord(i)
				r.buf = append(r.buf, ch)
				i++
				continue
			}
			// A comment runs to the end of the line.
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = n
			}
			continue
		case '&':
			if i+1 < n && s[i+1] == '&' {
				endSeg(i, true)
				i += 2
			} else if i+1 < n && s[i+1] == '>' { // &> and &>>
				endWord()
				i += 2
				if i < n && s[i] == '>' {
					i++
				}
				sg.pending = 'w'
				continue
			} else {
				endSeg(i, true)
				i++
			}
		case '|':
			if i+1 < n && s[i+1] == '|' {
				endSeg(i, true)
				i += 2
			} else if i+1 < n && s[i+1] == '&' {
				endSeg(i, false)
				i += 2
			} else {
				endSeg(i, false)
				i++
			}
		case '(':
			endSeg(i, false)
			open++
			i++
		case ')':
			if open > 0 {
				open--
			} else if nested {
				endSeg(i, false)
				return i + 1
			}
			endSeg(i, false)
			i++
		case '>', '<':
			// A word of digits right before the operator is a file descriptor.
			if sg.inWord && !sg.quoted && isDigits(string(r.buf[wordStart:])) {
				r.buf = r.buf[:wordStart]
				sg.inWord = false
			} else {
				endWord()
			}
			i++
			if i < n && s[i] == '(' { // process substitution
				i = r.sub(s, i+1, depth)
				sg.words = append(sg.words, "/dev/fd/63")
				continue
			}
			if ch == '>' {
				if i < n && (s[i] == '>' || s[i] == '|') {
					i++
				}
				if i < n && s[i] == '&' {
					i++
					sg.pending = 'd'
				} else {
					sg.pending = 'w'
				}
			} else {
				sg.pending = 'r'
				if i < n && s[i] == '<' && (i+1 >= n || s[i+1] != '<') { // << and <<-, not <<<
					sg.pending = 'h'
					i++
					sg.strip = i < n && s[i] == '-'
					if sg.strip {
						i++
					}
				}
				for i < n && (s[i] == '<' || s[i] == '>' || s[i] == '&') {
					i++
				}
			}
			continue
		case '\'':
			inWord(i)
			sg.quoted = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				r.buf = append(r.buf, s[i+1:]...)
				i = n
			} else {
				r.buf = append(r.buf, s[i+1:i+1+j]...)
				i += j + 2
			}
			continue
		case '"':
			inWord(i)
			sg.quoted = true
			i = r.double(s, i+1, depth)
			continue
		case '\\':
			if i+1 < n && s[i+1] == '\n' {
				if sg.inWord {
					sg.quoted = true
				}
				i += 2
				continue
			}
			if i+1 >= n {
				i++
				continue
			}
			inWord(i)
			sg.quoted = true
			_, size := utf8.DecodeRuneInString(s[i+1:])
			r.buf = append(r.buf, s[i+1:i+1+size]...)
			i += 1 + size
			continue
		case '$':
			inWord(i)
			var q bool
			i, q = r.dollar(s, i, depth)
			if q {
				sg.quoted = true
			}
			continue
		case '`':
			inWord(i)
			i = r.backtick(s, i, depth)
			continue
		default:
			inWord(i)
			r.buf = append(r.buf, ch)
			i++
			continue
		}
		// a separator was read: the next segment starts after it
		sg.start = i
	}
	endSeg(n, false)
	return n
}

// double reads a double-quoted string starting after the opening quote and
// returns the position after the closing quote.
func (r *reader) double(s string, i, depth int) int {
	n := len(s)
	for i < n {
		switch ch := s[i]; ch {
		case '"':
			return i + 1
		case '\\':
			if i+1 < n {
				switch s[i+1] {
				case '\n':
				case '$', '`', '"', '\\':
					r.buf = append(r.buf, s[i+1])
				default:
					r.buf = append(r.buf, '\\', s[i+1])
				}
				i += 2
			} else {
				r.buf = append(r.buf, '\\')
				i++
			}
		case '$':
			if i+1 < n && (s[i+1] == '\'' || s[i+1] == '"') {
				// $' and $" are not special inside double quotes
				r.buf = append(r.buf, '$')
				i++
				continue
			}
			i, _ = r.dollar(s, i, depth)
		case '`':
			i = r.backtick(s, i, depth)
		default:
			r.buf = append(r.buf, ch)
			i++
		}
	}
	return n
}

// dollar reads a word part that starts with '$' at s[i]. It keeps the text of
// substitutions and expansions as written, reads the command lines inside
// them, and decodes $'…' strings. It reports whether the part was quoted.
func (r *reader) dollar(s string, i, depth int) (int, bool) {
	n := len(s)
	if i+1 >= n {
		r.buf = append(r.buf, '$')
		return i + 1, false
	}
	switch s[i+1] {
	case '(':
		if i+2 < n && s[i+2] == '(' { // arithmetic $(( … ))
			j := skipParens(s, i+1)
			r.buf = append(r.buf, s[i:j]...)
			return j, false
		}
		j := r.sub(s, i+2, depth)
		r.buf = append(r.buf, s[i:j]...)
		return j, false
	case '{':
		j := r.brace(s, i+2, depth)
		r.buf = append(r.buf, s[i:j]...)
		return j, false
	case '\'':
		return r.ansiC(s, i+2), true
	case '"':
		return r.double(s, i+2, depth), true
	}
	r.buf = append(r.buf, '$')
	return i + 1, false
}

// sub reads the command line of a $( ) or <( ) starting at s[i] and returns
// the position after its closing ')'.
func (r *reader) sub(s string, i, depth int) int {
	if depth+1 > MaxDepth {
		r.deep = true
		return skipParens(s, i-1)
	}
	// The nested line has its own word buffer after the current one.
	saved := len(r.buf)
	end := r.readLine(s, i, depth+1, true)
	r.buf = r.buf[:saved]
	return end
}

// brace reads a ${ … } expansion from s[i] (after "${") and returns the
// position after its '}'. Substitutions inside are read.
func (r *reader) brace(s string, i, depth int) int {
	n := len(s)
	level := 1
	saved := len(r.buf)
	defer func() { r.buf = r.buf[:saved] }()
	for i < n {
		switch s[i] {
		case '\\':
			i += 2
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return n
			}
			i += j + 2
		case '"':
			i = r.double(s, i+1, depth)
		case '$':
			i, _ = r.dollar(s, i, depth)
		case '`':
			i = r.backtick(s, i, depth)
		case '{':
			level++
			i++
		case '}':
			level--
			i++
			if level == 0 {
				return i
			}
		default:
			i++
		}
	}
	return n
}

// backtick reads a `…` substitution starting at s[i] and returns the
// position after the closing backtick. Its content is read as a line.
func (r *reader) backtick(s string, i, depth int) int {
	n := len(s)
	j := i + 1
	var body []byte
	plain := true // body equals s[i+1:j] with no escapes removed
	for j < n && s[j] != '`' {
		if s[j] == '\\' && j+1 < n && (s[j+1] == '`' || s[j+1] == '\\' || s[j+1] == '$') {
			if plain {
				body = append(body, s[i+1:j]...)
				plain = false
			}
			body = append(body, s[j+1])
			j += 2
			continue
		}
		if !plain {
			body = append(body, s[j])
		}
		j++
	}
	end := j
	if j < n {
		end = j + 1
	}
	r.buf = append(r.buf, s[i:end]...)
	if depth+1 > MaxDepth {
		r.deep = true
		return end
	}
	text := s[i+1 : j]
	if !plain {
		text = string(body)
	}
	saved := len(r.buf)
	r.readLine(text, 0, depth+1, false)
	r.buf = r.buf[:saved]
	return end
}

// ansiC decodes a $'…' string from s[i] (after "$'") into the word buffer
// and returns the position after the closing quote.
func (r *reader) ansiC(s string, i int) int {
	n := len(s)
	for i < n {
		ch := s[i]
		if ch == '\'' {
			return i + 1
		}
		if ch != '\\' || i+1 >= n {
			r.buf = append(r.buf, ch)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			r.buf = append(r.buf, '\n')
		case 't':
			r.buf = append(r.buf, '\t')
		case 'r':
			r.buf = append(r.buf, '\r')
		case 'a':
			r.buf = append(r.buf, 7)
		case 'b':
			r.buf = append(r.buf, 8)
		case 'e', 'E':
			r.buf = append(r.buf, 27)
		case 'f':
			r.buf = append(r.buf, 12)
		case 'v':
			r.buf = append(r.buf, 11)
		case 'x':
			v, k := 0, 0
			for ; k < 2 && i+k < n && isHex(s[i+k]); k++ {
				v = v*16 + hexVal(s[i+k])
			}
			if k == 0 {
				r.buf = append(r.buf, '\\', 'x')
			} else {
				r.buf = append(r.buf, byte(v))
				i += k
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, k := int(e-'0'), 0
			for ; k < 2 && i+k < n && s[i+k] >= '0' && s[i+k] <= '7'; k++ {
				v = v*8 + int(s[i+k]-'0')
			}
			r.buf = append(r.buf, byte(v))
			i += k
		default:
			r.buf = append(r.buf, e)
		}
	}
	return n
}

// skipParens returns the position after the ')' matching the '(' at s[i],
// without reading anything inside. Quotes and escapes are respected.
func skipParens(s string, i int) int {
	n := len(s)
	level := 0
	for i < n {
		switch s[i] {
		case '(':
			level++
		case ')':
			level--
			if level == 0 {
				return i + 1
			}
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return n
			}
			i += j + 1
		case '"':
			for i++; i < n && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		}
		i++
	}
	return n
}

// finish turns a read segment into a command: it strips the words that
// precede a command, unwraps wrappers, and reads the command lines that the
// command runs (sh -c, eval, env -S).
func (r *reader) finish(line string, start, end int, words, writes []string, pipe, first, depth int) *command {
	if len(words) == 0 && len(writes) == 0 && strings.TrimSpace(line[start:end]) == "" {
		return nil
	}
	c := r.newCommand()
	*c = command{line: line, start: start, end: end, writes: writes, pipe: pipe}
	args := words
	var split string // an env -S line
	for {
		for len(args) > 0 && (isReserved(args[0]) || isAssignment(args[0])) {
			args = args[1:]
		}
		if len(args) == 0 {
			break
		}
		w, ok := wrapperFor(baseName(args[0]))
		if !ok {
			break
		}
		if w.sudo {
			c.sudo = true
		}
		args, split = w.skip(args[1:])
		if split != "" {
			break
		}
	}
	if split == "" {
		c.args = args
	}
	if len(c.args) > 0 {
		c.prog = baseName(args[0])
	}
	r.cmds = append(r.cmds, c)
	self := len(r.cmds) - 1

	if runsText(c) {
		for _, inner := range r.cmds[first:self] {
			if inner.feeder == nil {
				inner.feeder = c
			}
		}
	}

	body, ok := "", false
	switch {
	case split != "":
		body, ok = split+" "+strings.Join(args, " "), true
	case c.prog == "eval":
		body, ok = strings.Join(args[1:], " "), len(args) > 1
	case isShell(c.prog):
		body, ok = shellLine(c.prog, args)
	}
	if !ok {
		return c
	}
	if depth+1 > MaxDepth {
		r.deep = true
		return c
	}
	saved := len(r.buf)
	r.readLine(body, 0, depth+1, false)
	r.buf = r.buf[:saved]
	return c
}

// heredocs reads the bodies of here-documents, which start at s[i] (just
// after a newline), and returns the position of the newline that ends the
// last delimiter line. A body fed to a shell is read as commands; the
// substitutions of a body with an unquoted delimiter are read; every body
// is kept with its command for the rules that read raw text. A delimiter
// that never comes means the lines were not a body after all (an arithmetic
// <<, a typo): they are then read as commands, so nothing can hide behind
// a stray <<.
func (r *reader) heredocs(s string, i, depth int, docs []heredoc) int {
	for _, d := range docs {
		start, end, next := i, -1, -1
		for p := i; p < len(s); {
			e := strings.IndexByte(s[p:], '\n')
			if e < 0 {
				e = len(s)
			} else {
				e += p
			}
			line := s[p:e]
			if d.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if strings.TrimSuffix(line, "\r") == d.delim {
				end, next = p, e
				break
			}
			p = e + 1
		}
		if end < 0 {
			return i // no delimiter: read the rest as commands
		}
		body := s[start:end]
		i = next
		c := d.owner
		if c != nil {
			c.heredoc = body
		}
		switch {
		case c != nil && isShell(c.prog):
			if depth+1 > MaxDepth {
				r.deep = true
				continue
			}
			saved := len(r.buf)
			r.readLine(body, 0, depth+1, false)
			r.buf = r.buf[:saved]
		case !d.quoted:
			r.bodySubs(body, depth)
		}
	}
	return i
}

// bodySubs reads the substitutions in a here-document body, which expands
// like a double-quoted string.
func (r *reader) bodySubs(body string, depth int) {
	saved := len(r.buf)
	for i := 0; i < len(body); {
		switch body[i] {
		case '\\':
			i += 2
		case '$':
			i, _ = r.dollar(body, i, depth)
		case '`':
			i = r.backtick(body, i, depth)
		default:
			i++
		}
	}
	r.buf = r.buf[:saved]
}

// shellLine returns the command line a shell runs with -c (or fish's
// --command), if it has one.
func shellLine(prog string, args []string) (string, bool) {
	hasC := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			if hasC && i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case strings.HasPrefix(a, "--command="):
			return a[len("--command="):], true
		case a == "--command":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--rcfile", "--init-file", "--init-command":
				i++
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			for k := 1; k < len(a); k++ {
				switch a[k] {
				case 'c':
					if a[0] == '-' {
						hasC = true
					}
				case 'o', 'O':
					i++
				case 'C':
					if prog == "fish" {
						i++
					}
				}
			}
		default:
			if hasC {
				return a, true
			}
			return "", false
		}
	}
	return "", false
}

// runsText reports whether c runs text it is given, so that the commands in
// its substitutions feed it.
func runsText(c *command) bool {
	switch c.prog {
	case "eval", "source", ".", "python", "python3", "node":
		return true
	}
	if isShell(c.prog) {
		return true
	}
	for _, a := range c.args[min(1, len(c.args)):] {
		if a == "-c" {
			return true
		}
		if a == "--" {
			break
		}
	}
	return false
}

func isShell(p string) bool {
	switch p {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		return true
	}
	return false
}

// isReserved reports whether w is a word that may precede a command.
func isReserved(w string) bool {
	switch w {
	case "{", "}", "!", "if", "then", "elif", "else", "while", "until", "do", "fi", "done", "esac":
		return true
	}
	return false
}

// isAssignment reports whether w has the form NAME=value (or NAME+=value,
// NAME[i]=value).
func isAssignment(w string) bool {
	if w == "" || !(w[0] == '_' || isLetter(w[0])) {
		return false
	}
	for i := 1; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_' || isLetter(c) || (c >= '0' && c <= '9'):
		case c == '=':
			return true
		case c == '+':
			return i+1 < len(w) && w[i+1] == '='
		case c == '[':
			j := strings.IndexByte(w[i:], ']')
			if j < 0 {
				return false
			}
			i += j
		default:
			return false
		}
	}
	return false
}

// baseName is the last element of a slash-separated word.
func baseName(w string) string {
	if j := strings.LastIndexByte(w, '/'); j >= 0 && j+1 < len(w) {
		return w[j+1:]
	}
	return w
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

func isDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
