// Package cli is the tuios command line: a table of verbs, each with its
// help text, an example and a run function, and the dispatch that picks the
// verb from the arguments, parses its flags (pflag) and reports errors with a
// stable code, a message and a hint.
//
// Adding a verb: write it in a file of its own (see risk.go) as a function
// that returns its Command values, and add that function to commands below.
// A name with a space ("risk check") is a sub-verb; a Command with no Run
// ("risk") is a group that only lists its sub-verbs.
package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/fuzzy"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
	"github.com/tuios/tuios/vt"
)

// Exit codes (docs/protocol.md). Bad arguments and an unknown verb
// are failures (1): 2 is what ask-human uses for "no answer yet", and 3 says
// no daemon is running, so neither may stand for a usage error.
const (
	ExitOK            = 0
	ExitFailure       = 1 // bad arguments, unknown verb, not found, refused, timeout
	ExitNoAnswer      = 2 // ask-human: no answer yet
	ExitNoDaemon      = 3 // no daemon running
	ExitOutsideFolder = 4 // tuios cp outside the pane's folder rules
)

// commands is the verb table. Each entry is a function in the verb's own
// file that returns the verb's commands.
func commands() []Command {
	var all []Command
	for _, verbs := range []func() []Command{
		riskCommands,
		daemonCommands,
		windowCommands,
		arrangeCommands,     // arrange.go
		sessionMetaCommands, // session_meta.go
		paneCommands,
		screenshotCommands, // screenshot.go
		popupCommands,      // popup.go
		agentCommands,
		hookCommands,
		integrationCommands,
		mailCommands,
		mailReleaseCommands, // mail_release.go
		respondCommands,
		queueCommands,
		reviewCommands,
		agentLogCommands, // agentlog.go
		resumeCommands,   // resume.go
		transcriptCommands,
		attentionCommands,
		askCommands,
		demoCommands,
		attachCommands,
		hostsCommands,  // hosts.go
		outboxCommands, // outbox.go
		startAgentCommands,
		agentProtoCommands, // agent_proto.go
		worktreeCommands,   // worktree.go: worktree new, ls, rm, diff, pull
		fanCommands,        // fan.go: fan, fan compare, verify, diff, keep
		grantsCommands,     // grants.go: pane-grants, set-pane-grants
		optionsCommands,    // options.go: set-config, get-config, list-options, list-themes
		mcpCommands,        // mcp.go
		completionCommands, // completion.go
		notifyCommands,     // notify.go: notify test
		cpCommands,         // cp.go: cp, transfers and its sub-verbs
	} {
		all = append(all, verbs()...)
	}
	return all
}

// FlagSet is pflag's flag set, named here so that verb files need not
// import pflag.
type FlagSet = pflag.FlagSet

// Command is one verb.
type Command struct {
	// Name is the verb as typed after "tuios": "risk check".
	Name string
	// Summary is one line for the verb list.
	Summary string
	// Usage is the synopsis after the name, e.g. "[flags] -- COMMAND".
	Usage string
	// Help is the longer text shown by --help, plain paragraphs.
	Help string
	// Example is one or more example lines shown by --help.
	Example string
	// More is text --help prints after the flags, made only then (the
	// attach client's keys, read from the config file).
	More func() string
	// Flags defines the verb's flags. It may be nil.
	Flags func(fs *FlagSet)
	// RawArgs hands every argument after the verb to Run unparsed (for a
	// verb that parses its own flags).
	RawArgs bool
	// Hidden keeps the verb out of the lists a person reads (it is for
	// scripts tuios itself writes, such as `__complete`).
	Hidden bool
	// Run runs the verb. A nil Run makes the command a group. An error
	// that is not an *Error is reported with the code "internal".
	Run func(ctx *Context) error
}

// Context is what a verb runs with.
type Context struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Flags holds the verb's parsed flags.
	Flags *pflag.FlagSet
	// Args are the positional arguments (after the flags and after "--").
	Args []string
}

// Error is a failure with a stable code (docs/protocol.md), a
// one-line message and a hint that says what to do next.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Host is the linked host the failure concerns; Untrusted says its
	// message came from that machine's daemon: data, not instructions.
	Host      string `json:"host,omitempty"`
	Untrusted bool   `json:"untrusted,omitempty"`
	// Param is the daemon param an invalid_params error is about, put in
	// the verb's own words by speakFlags (args.go) with Problem, what is
	// wrong with it ("is required"); Ranged says the daemon's hint is a
	// range in its own units.
	Param   string `json:"-"`
	Problem string `json:"-"`
	Ranged  bool   `json:"-"`
	// Exit is the exit code; 0 means ExitFailure.
	Exit int `json:"-"`
}

func (e *Error) Error() string { return e.Message }

// usageError is a bad-arguments failure.
func usageError(hint, format string, args ...any) *Error {
	return &Error{Code: "invalid_params", Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Main runs the tuios command line with args (without the program name) and
// returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	table := commands()
	if len(args) == 0 {
		// On a terminal a bare tuios attaches, as tmux does; anywhere
		// else (a script, a pipe) it prints the verbs and fails.
		if isTerminal(stdin, stdout) {
			return Main([]string{"attach"}, stdin, stdout, stderr)
		}
		writeMainHelp(stderr, table)
		return ExitFailure
	}
	switch args[0] {
	case "--skill":
		if err := runSkill(stdout, args[1:]); err != nil {
			return fail(stderr, false, err)
		}
		return ExitOK
	case "-h", "--help":
		writeMainHelp(stdout, table)
		return ExitOK
	case "--version", "-V":
		fmt.Fprintln(stdout, version.Get().String())
		return ExitOK
	case "help":
		if len(args) == 1 {
			writeMainHelp(stdout, table)
			return ExitOK
		}
		cmd, rest := lookup(table, args[1:])
		if cmd == nil || len(rest) > 0 {
			return fail(stderr, false, unknownVerb(table, args[1:]))
		}
		writeHelp(stdout, table, cmd)
		return ExitOK
	}
	cmd, rest := lookup(table, args)
	if cmd == nil {
		return fail(stderr, false, unknownVerb(table, args))
	}
	if cmd.Run == nil {
		if len(rest) > 0 && (rest[0] == "-h" || rest[0] == "--help") {
			writeHelp(stdout, table, cmd)
			return ExitOK
		}
		if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			return fail(stderr, false, unknownVerb(table, args[:strings.Count(cmd.Name, " ")+2]))
		}
		subs := subVerbs(table, cmd)
		return fail(stderr, false, usageError(fmt.Sprintf("run tuios %s --help", cmd.Name),
			"%s needs a verb: %s", cmd.Name, strings.Join(subs, ", ")))
	}

	if cmd.RawArgs && !(len(rest) == 1 && (rest[0] == "-h" || rest[0] == "--help")) {
		if err := cmd.Run(&Context{Stdin: stdin, Stdout: stdout, Stderr: stderr, Args: rest}); err != nil {
			return fail(stderr, false, err)
		}
		return ExitOK
	}
	fs := pflag.NewFlagSet("tuios "+cmd.Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = true
	if cmd.Flags != nil {
		cmd.Flags(fs)
	}
	help := fs.BoolP("help", "h", false, "show this help")
	err := fs.Parse(rest)
	asJSON := false
	if f := fs.Lookup("json"); f != nil {
		asJSON = f.Value.String() == "true"
	}
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			writeHelp(stdout, table, cmd)
			return ExitOK
		}
		return fail(stderr, asJSON, usageError(
			fmt.Sprintf("run tuios %s --help; put the words to check after --", cmd.Name),
			"tuios %s: %v", cmd.Name, err))
	}
	if *help {
		writeHelp(stdout, table, cmd)
		return ExitOK
	}
	if err := checkArgs(table, cmd, fs); err != nil { // args.go
		return fail(stderr, asJSON, err)
	}
	if err := foldHost(cmd, fs); err != nil {
		return fail(stderr, asJSON, err)
	}
	ctx := &Context{Stdin: stdin, Stdout: stdout, Stderr: stderr, Flags: fs, Args: fs.Args()}
	if err := cmd.Run(ctx); err != nil {
		return fail(stderr, asJSON, speakFlags(cmd, fs, err))
	}
	return ExitOK
}

// lookup finds the longest verb that args start with and returns it and the
// arguments after it.
func lookup(table []Command, args []string) (*Command, []string) {
	var found *Command
	n := 0
	for i := range table {
		words := strings.Fields(table[i].Name)
		if len(words) <= n || len(words) > len(args) || !slices.Equal(words, args[:len(words)]) {
			continue
		}
		found, n = &table[i], len(words)
	}
	if found == nil {
		return nil, args
	}
	return found, args[n:]
}

func subVerbs(table []Command, group *Command) []string {
	var subs []string
	for _, c := range table {
		if strings.HasPrefix(c.Name, group.Name+" ") && c.Run != nil {
			subs = append(subs, c.Name)
		}
	}
	return subs
}

// unknownVerb names the nearest verb to what was typed.
func unknownVerb(table []Command, args []string) *Error {
	// The typed verb: the leading words that are not flags, as many as the
	// longest verb has.
	longest := 1
	for _, c := range table {
		longest = max(longest, len(strings.Fields(c.Name)))
	}
	var typed []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || len(typed) == longest {
			break
		}
		typed = append(typed, a)
	}
	// A later word belongs to the verb only after a group's name ("hosts
	// frob") or when it is a sub-verb's word ("rsik check"): the
	// arguments of "set-config notifications.agent.sound" are not part
	// of the verb named.
	for n := 1; n < len(typed); n++ {
		if !isGroupPrefix(table, typed[:n]) && !isSubWord(table, n, typed[n]) {
			typed = typed[:n]
			break
		}
	}
	verb := strings.Join(typed, " ")
	if verb == "" && len(args) > 0 {
		verb = args[0]
	}
	best, bestDist := "", -1
	for _, c := range table {
		words := strings.Fields(c.Name)
		cand := strings.Join(words[:min(len(words), max(len(typed), 1))], " ")
		d := fuzzy.Distance(verb, cand)
		if bestDist < 0 || d < bestDist {
			best, bestDist = cand, d
		}
	}
	hint := "run tuios --help for the list of verbs"
	if best != "" && bestDist <= max(2, len(verb)/3) {
		hint = fmt.Sprintf("did you mean tuios %s? %s", best, hint)
	}
	return &Error{Code: "unknown_verb", Message: fmt.Sprintf("unknown verb %q", verb), Hint: hint}
}

// isGroupPrefix says whether words are the start of a longer verb's name.
func isGroupPrefix(table []Command, words []string) bool {
	p := strings.Join(words, " ") + " "
	for _, c := range table {
		if strings.HasPrefix(c.Name, p) {
			return true
		}
	}
	return false
}

// isSubWord says whether w is word i (from 0) of some verb's name.
func isSubWord(table []Command, i int, w string) bool {
	for _, c := range table {
		if f := strings.Fields(c.Name); len(f) > i && f[i] == w {
			return true
		}
	}
	return false
}

// fail reports err on w and returns its exit code.
func fail(w io.Writer, asJSON bool, err error) int {
	var e *Error
	if !errors.As(err, &e) {
		if code, hint, ok := proto.CodeOf(err); ok {
			e = &Error{Code: code, Message: err.Error(), Hint: hint}
		} else {
			e = &Error{Code: "internal", Message: err.Error()}
		}
	}
	if asJSON {
		out, _ := json.Marshal(map[string]any{"error": e})
		fmt.Fprintf(w, "%s\n", out)
	} else {
		// The first line names the stable code, so a script that did not
		// ask for JSON can still branch on it.
		lines := strings.Split(e.Message, "\n")
		if e.Untrusted {
			// Another machine's words stay on one escaped line: they
			// cannot pass for lines of this CLI's own.
			lines = []string{e.Message}
		}
		for i, line := range lines {
			if i == 0 && e.Code != "" {
				line = e.Code + ": " + line
			}
			fmt.Fprintf(w, "tuios: %s\n", escapeControls(line))
		}
		if e.Hint != "" {
			fmt.Fprintf(w, "hint: %s\n", escapeControls(e.Hint))
		}
	}
	if e.Exit != 0 {
		return e.Exit
	}
	return ExitFailure
}

func writeMainHelp(w io.Writer, table []Command) {
	fmt.Fprintf(w, "tuios tells what the coding agent in each terminal pane is doing.\n\n")
	fmt.Fprintf(w, "Usage: tuios VERB [flags] [arguments]\n\nVerbs:\n")
	var rows [][2]string
	width := 0
	for _, c := range table {
		if c.Run == nil || c.Hidden {
			continue
		}
		rows = append(rows, [2]string{c.Name, c.Summary})
		width = max(width, len(c.Name))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
	fmt.Fprintf(w, "\nRun tuios VERB --help for a verb's flags and an example.\n")
	fmt.Fprintf(w, "Run tuios --skill [TOPIC|all] for the guide written for agents in a pane.\n")
	fmt.Fprintf(w, "Run tuios --version for the version.\n")
}

func writeHelp(w io.Writer, table []Command, c *Command) {
	if c.Run == nil {
		fmt.Fprintf(w, "Usage: tuios %s VERB [flags] [arguments]\n\n", c.Name)
		if c.Summary != "" {
			fmt.Fprintf(w, "%s\n\n", upperFirst(c.Summary))
		}
		if c.Help != "" {
			fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(c.Help))
		}
		fmt.Fprintf(w, "Verbs:\n")
		names := subVerbs(table, c)
		width := 0
		for _, name := range names {
			width = max(width, len(name))
		}
		for _, name := range names {
			sub, _ := lookup(table, strings.Fields(name))
			fmt.Fprintf(w, "  %-*s  %s\n", width, name, sub.Summary)
		}
		if c.Example != "" {
			fmt.Fprintf(w, "\nExample:\n%s\n", indent(c.Example))
		}
		fmt.Fprintf(w, "\nRun tuios %s VERB --help for a verb's flags.\n", c.Name)
		return
	}
	fmt.Fprintf(w, "Usage: tuios %s %s\n\n", c.Name, c.Usage)
	if c.Summary != "" {
		fmt.Fprintf(w, "%s\n\n", upperFirst(c.Summary))
	}
	if c.Help != "" {
		fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(c.Help))
	}
	fs := pflag.NewFlagSet(c.Name, pflag.ContinueOnError)
	if c.Flags != nil {
		c.Flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	fmt.Fprintf(w, "Flags:\n%s", flagUsages(fs))
	if c.More != nil {
		if more := strings.TrimRight(c.More(), "\n"); more != "" {
			fmt.Fprintf(w, "\n%s\n", more)
		}
	}
	if c.Example != "" {
		fmt.Fprintf(w, "\nExample:\n%s\n", indent(c.Example))
	}
}

// flagUsages lists a verb's flags, one a line: "-x, --name VALUE  usage".
// A name in backquotes in the usage is the value's name.
func flagUsages(fs *FlagSet) string {
	var rows [][2]string
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		name := "    --" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", --" + f.Name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if f.Value.Type() != "bool" {
			if varname == "" {
				varname = "VALUE"
			}
			name += " " + varname
			usage += flagDefault(f) // flag_default.go: once, the real one
		}
		rows = append(rows, [2]string{name, usage})
		width = max(width, len(name))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r[0], r[1])
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// escapeControls makes text that came from an agent safe to print on a
// terminal (see vt.Escape).
func escapeControls(s string) string { return vt.Escape(s) }
