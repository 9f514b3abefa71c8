package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/e2e"
)

// The README and the pages under docs/ are what a newcomer follows: every
// `tuios …` command they show must be one the binary takes, every relative
// link must lead somewhere, and the verb list must be the binary's. These
// tests read the files and the verb table only; TestDemo runs the README's
// first set-up command.

// doc is one Markdown file: its path from the repository root and text.
type doc struct {
	path, text string
}

func readDocs(t *testing.T) []doc {
	t.Helper()
	root := e2e.Root()
	paths := []string{filepath.Join(root, "README.md")}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, more...)
	var out []doc
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, doc{rel, string(b)})
	}
	return out
}

// snippet is shell text a doc shows, and where.
type snippet struct {
	where string // file:line
	text  string
}

var (
	fenceRE  = regexp.MustCompile("^```(\\S*)")
	inlineRE = regexp.MustCompile("`([^`]+)`")
)

// docCommands gathers what a doc shows as commands: fenced blocks marked
// bash, sh, shell or console (a console block's lines after "$ "),
// indented code blocks, and inline code spans (a span may wrap across
// lines of a paragraph). Other fenced blocks (toml, go, text, captures of
// a screen, output) are not commands.
func docCommands(d doc) []snippet {
	lines := strings.Split(d.text, "\n")
	var out []snippet
	at := func(i int) string { return fmt.Sprintf("%s:%d", d.path, i+1) }
	fence, lang := false, ""
	var para []string
	paraStart := 0
	flush := func() {
		if len(para) > 0 {
			joined := strings.Join(para, " ")
			for _, m := range inlineRE.FindAllStringSubmatch(joined, -1) {
				out = append(out, snippet{at(paraStart), m[1]})
			}
		}
		para = nil
	}
	var block []string
	blockStart := 0
	prevBlank := true
	for i, line := range lines {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			if !fence {
				flush()
				fence, lang, block, blockStart = true, m[1], nil, i+1
			} else {
				switch lang {
				case "bash", "sh", "shell":
					out = append(out, snippet{at(blockStart), strings.Join(block, "\n")})
				case "console":
					for j, l := range block {
						if cmd, ok := strings.CutPrefix(l, "$ "); ok {
							out = append(out, snippet{at(blockStart + j), cmd})
						}
					}
				}
				fence, block = false, nil
			}
			prevBlank = false
			continue
		}
		if fence {
			block = append(block, line)
			continue
		}
		switch {
		case strings.HasPrefix(line, "    ") && (prevBlank || len(block) > 0) && len(para) == 0:
			if len(block) == 0 {
				blockStart = i
			}
			block = append(block, strings.TrimPrefix(line, "    "))
		case strings.TrimSpace(line) == "":
			if len(block) > 0 {
				out = append(out, snippet{at(blockStart), strings.Join(block, "\n")})
				block = nil
			}
			flush()
		default:
			if len(block) > 0 {
				out = append(out, snippet{at(blockStart), strings.Join(block, "\n")})
				block = nil
			}
			if len(para) == 0 {
				paraStart = i
			}
			para = append(para, line)
		}
		prevBlank = strings.TrimSpace(line) == ""
	}
	if len(block) > 0 {
		out = append(out, snippet{at(blockStart), strings.Join(block, "\n")})
	}
	flush()
	return out
}

// shellWords splits shell text into simple commands, each a list of
// words: quotes are removed, a comment ends the line, and newlines, ;,
// |, || and && end a command (a backslash before a newline does not).
// Redirections and what follows them are dropped. It is enough for the
// commands docs show, not a shell.
func shellWords(s string) [][]string {
	var cmds [][]string
	var words []string
	var w strings.Builder
	inWord, redirect := false, false
	endWord := func() {
		if inWord && !redirect {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words, redirect = nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
			endWord()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				j++
			}
			w.WriteString(s[i+1 : min(j, len(s))])
			inWord, i = true, j
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i--
		case c == '\n' || c == ';' || c == '|' || c == '&':
			endCmd()
		case c == '>' || c == '<':
			endWord()
			redirect = true
		case c == ' ' || c == '\t':
			endWord()
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

var assignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// tuiosArgs returns the arguments of a simple command that runs tuios
// ("$ " prompts and VAR=value prefixes skipped), and whether it does.
func tuiosArgs(words []string) ([]string, bool) {
	for len(words) > 0 && (words[0] == "$" || assignRE.MatchString(words[0])) {
		words = words[1:]
	}
	if len(words) == 0 || words[0] != "tuios" {
		return nil, false
	}
	var args []string
	for _, w := range words[1:] {
		switch {
		case strings.HasPrefix(w, "[") && strings.HasSuffix(w, "]"):
			// [--json], [PREFIX]: a synopsis's optional word
		case placeholderRE.MatchString(w):
			args = append(args, "1") // N, MS, ID: a value the reader fills in
		default:
			args = append(args, w)
		}
	}
	return args, true
}

// placeholderRE is a word a synopsis puts for a value: NAME, N, VERB.
var placeholderRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// checkCommand says what is wrong with `tuios args…`, as the binary's own
// dispatch would parse it: an unknown verb, an unknown flag or a bad flag
// value, or more arguments than the verb takes. It runs nothing.
func checkCommand(table []Command, args []string) error {
	if len(args) == 0 {
		return nil // tuios alone attaches
	}
	switch args[0] {
	case "--help", "-h", "--skill", "--version", "help", "1": // 1: tuios VERB --help
		return nil
	}
	cmd, rest := lookup(table, args)
	if cmd == nil || cmd.Hidden {
		return fmt.Errorf("no verb %q", strings.Join(args, " "))
	}
	if cmd.Run == nil {
		if len(rest) == 0 {
			return nil // a group: prints its verbs
		}
		return fmt.Errorf("%s has no verb %q", cmd.Name, rest[0])
	}
	fs := pflag.NewFlagSet("tuios "+cmd.Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.Flags != nil {
		cmd.Flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(rest); err != nil && !errors.Is(err, pflag.ErrHelp) {
		return fmt.Errorf("tuios %s: %v", cmd.Name, err)
	}
	if cmd.RawArgs {
		return nil
	}
	if err := checkArgs(table, cmd, fs); err != nil {
		return fmt.Errorf("tuios %s: %v", cmd.Name, err)
	}
	return nil
}

// Every `tuios …` a doc shows is a verb the binary has, with flags it
// takes and no more arguments than it takes.
func TestDocsCommandsAreRealVerbs(t *testing.T) {
	isolate(t)
	table := commands()
	checked := 0
	for _, d := range readDocs(t) {
		for _, s := range docCommands(d) {
			for _, words := range shellWords(s.text) {
				args, ok := tuiosArgs(words)
				if !ok {
					continue
				}
				checked++
				if err := checkCommand(table, args); err != nil {
					t.Errorf("%s: tuios %s\n\t%v", s.where, strings.Join(args, " "), err)
				}
			}
		}
	}
	t.Logf("%d tuios commands checked", checked)
	if checked < 200 {
		t.Errorf("only %d tuios commands found in README.md and docs/*.md: the extraction is broken", checked)
	}
}

// The checker itself refuses what the binary refuses.
func TestDocsCommandCheckerRefusesWhatTheBinaryRefuses(t *testing.T) {
	isolate(t)
	table := commands()
	for _, bad := range []string{
		"tuios no-such-verb",
		"tuios list-windows --no-such-flag",
		"tuios wait-for window-output --timeout soon",
		"tuios close-window A B",
		"tuios hosts frobnicate",
	} {
		args, _ := tuiosArgs(shellWords(bad)[0])
		if checkCommand(table, args) == nil {
			t.Errorf("%s: passed the check", bad)
		}
	}
	for _, good := range []string{
		"tuios",
		"tuios new-window -s work logs --no-focus tail -f x",
		"TUIOS_LOG_LEVEL=debug tuios ls",
		"tuios send-text -s work -w build 'go test ./...\n'",
		"tuios hosts",
	} {
		args, _ := tuiosArgs(shellWords(good)[0])
		if err := checkCommand(table, args); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchors are the GitHub anchors of a Markdown file's headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// Every relative link in README.md and docs/*.md leads to a file that is
// there, and a #fragment to a heading of it.
func TestDocsLinksLeadSomewhere(t *testing.T) {
	root := e2e.Root()
	docs := readDocs(t)
	texts := map[string]string{}
	for _, d := range docs {
		texts[d.path] = d.text
	}
	n := 0
	for _, d := range docs {
		for _, m := range linkRE.FindAllStringSubmatch(d.text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			n++
			file, frag, _ := strings.Cut(link, "#")
			target := d.path
			if file != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(d.path), file))
				if _, err := os.Stat(filepath.Join(root, target)); err != nil {
					t.Errorf("%s: link %s: %s is not there", d.path, link, target)
					continue
				}
			}
			if frag == "" {
				continue
			}
			text, ok := texts[target]
			if !ok {
				t.Errorf("%s: link %s: a #fragment into a file that is not a doc", d.path, link)
				continue
			}
			if !anchors(text)[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", d.path, link, target, frag)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d relative links found: the extraction is broken", n)
	}
}

// docs/cli.md lists every verb with the summary --help gives it.
func TestDocsListEveryVerb(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(e2e.Root(), "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- verbs:begin -->\n")
	got, _, ok2 := strings.Cut(rest, "<!-- verbs:end -->")
	if !ok1 || !ok2 {
		t.Fatal("docs/cli.md lacks the <!-- verbs:begin --> … <!-- verbs:end --> table")
	}
	table := commands()
	sort.Slice(table, func(i, j int) bool { return table[i].Name < table[j].Name })
	var rows []string
	for _, c := range table {
		if c.Run != nil && !c.Hidden {
			rows = append(rows, fmt.Sprintf("| `tuios %s` | %s |", c.Name, strings.ReplaceAll(c.Summary, "|", `\|`)))
		}
	}
	want := "| verb | what it does |\n| --- | --- |\n" + strings.Join(rows, "\n") + "\n"
	if got != want {
		t.Errorf("docs/cli.md's verb table is not the binary's; put this between the markers:\n%s", want)
	}
}

// The README names exactly two set-up commands: the demo, which TestDemo
// runs as written, and the whole test suite, which is this run.
func TestReadmeSetUpIsTwoCommands(t *testing.T) {
	got := e2e.SetupCommands(t)
	if len(got) != 2 || !strings.HasPrefix(got[0], "go run ./cmd/tuios ") || got[1] != "go test ./..." {
		t.Fatalf("README set-up commands %q, want the demo (go run ./cmd/tuios …) and go test ./...", got)
	}
}
