package cli

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/proto"
)

// Shell completion. The scripts `tuios completion SHELL` prints are thin:
// on every Tab they run `tuios __complete WORD… CURRENT`, which answers
// from the one verb table (verbs, sub-verbs, flags with their help) and,
// for the values of -s, -w and --host, from the running daemon and the
// config file. So completion never drifts from the binary it runs, and a
// verb added to the table completes with no script change.

// completeTimeout bounds the daemon's answer for live names: a Tab must
// not hang on a daemon that is busy or gone.
const completeTimeout = 300 * time.Millisecond

func completionCommands() []Command {
	return []Command{
		{
			Name:    "completion",
			Summary: "print a shell completion script (bash, zsh or fish)",
			Usage:   "bash|zsh|fish",
			Help: "Completes verbs, sub-verbs and flags (with their help in zsh and fish) and, for -s, -w and --host, " +
				"the sessions, windows and hosts there are now: the script asks `tuios __complete`, which asks the " +
				"running daemon (never starting one) and gives up after 300 ms.\n\n" +
				"Install it once:\n" +
				"  bash: echo 'source <(tuios completion bash)' >> ~/.bashrc\n" +
				"  zsh:  tuios completion zsh > \"${fpath[1]}/_tuios\"   (then start a new shell)\n" +
				"  fish: tuios completion fish > ~/.config/fish/completions/tuios.fish",
			Example: "source <(tuios completion bash)\ntuios completion zsh > \"${fpath[1]}/_tuios\"\ntuios completion fish > ~/.config/fish/completions/tuios.fish",
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios completion bash", "completion needs one shell: bash, zsh or fish")
				}
				script, ok := completionScripts[ctx.Args[0]]
				if !ok {
					return usageError("tuios completion bash", "no completion for %q: bash, zsh or fish", ctx.Args[0])
				}
				_, err := fmt.Fprint(ctx.Stdout, script)
				return err
			},
		},
		{
			Name:    "__complete",
			Summary: "answer a completion script: the candidates for the last word",
			Usage:   "WORD... CURRENT",
			Hidden:  true,
			RawArgs: true,
			Run: func(ctx *Context) error {
				words := ctx.Args
				if len(words) == 0 {
					words = []string{""}
				}
				for _, c := range complete(commands(), words, liveNames{}) {
					fmt.Fprintln(ctx.Stdout, c.line())
				}
				return nil
			},
		},
	}
}

// candidate is one completion: the word and, for shells that show it, a
// one-line description.
type candidate struct {
	word, desc string
}

func (c candidate) line() string {
	d := strings.Join(strings.Fields(c.desc), " ") // one line, no tabs
	if d == "" {
		return c.word
	}
	return c.word + "\t" + d
}

// names gives the live values of a flag. The zero value asks the daemon
// on TUIOS_SOCKET and reads the config file; tests give their own.
type names interface {
	sessions() []candidate
	windows(session string) []candidate
	hosts() []candidate
}

// complete gives the candidates for the last of words (the word being
// typed; "" after a space), the words before it being what was typed
// after "tuios".
func complete(table []Command, words []string, live names) []candidate {
	cur, prev := words[len(words)-1], words[:len(words)-1]
	var out []candidate
	switch {
	case len(prev) == 0 && strings.HasPrefix(cur, "-"):
		out = []candidate{{"--help", "the list of verbs"}, {"--skill", "the guide for agents in a pane"}, {"--version", "the version"}}
	case len(prev) == 0:
		out = nextWords(table, "")
	case prev[0] == "--skill" && len(prev) == 1:
		for _, t := range append(slices.Clone(skillTopics), "all") {
			out = append(out, candidate{word: t})
		}
	case prev[0] == "help":
		out = nextWords(table, strings.Join(prev[1:], " "))
	default:
		out = completeVerb(table, prev, cur, live)
	}
	return filter(out, cur)
}

// nextWords are the words that can follow the verb words typed so far
// ("" for the first word): verbs, or a group's sub-verbs.
func nextWords(table []Command, typed string) []candidate {
	prefix := ""
	if typed != "" {
		prefix = typed + " "
	}
	seen := map[string]int{}
	var out []candidate
	for _, c := range table {
		if c.Hidden || !strings.HasPrefix(c.Name, prefix) {
			continue
		}
		rest := strings.Fields(strings.TrimPrefix(c.Name, prefix))
		if len(rest) == 0 {
			continue
		}
		w, desc := rest[0], c.Summary
		if len(rest) > 1 {
			desc = "" // a group: its own row (if any) says what it is
		}
		if i, ok := seen[w]; ok {
			if out[i].desc == "" {
				out[i].desc = desc
			}
			continue
		}
		seen[w] = len(out)
		out = append(out, candidate{w, desc})
	}
	for i := range out {
		if out[i].desc == "" {
			out[i].desc = "verbs: tuios " + strings.TrimSpace(prefix+out[i].word) + " VERB"
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].word < out[j].word })
	return out
}

// completeVerb completes after a verb's name: its sub-verbs, its flags,
// or a flag's value.
func completeVerb(table []Command, prev []string, cur string, live names) []candidate {
	cmd, rest := lookup(table, prev)
	if cmd == nil || cmd.Hidden {
		return nil
	}
	var out []candidate
	if len(rest) == 0 && !strings.HasPrefix(cur, "-") {
		out = nextWords(table, cmd.Name)
		if cmd.Run == nil {
			return out
		}
	}
	if cmd.RawArgs && cmd.Flags == nil {
		return out
	}
	fs := pflag.NewFlagSet(cmd.Name, pflag.ContinueOnError)
	if cmd.Flags != nil {
		cmd.Flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	// --flag=VALUE in the word being typed.
	if name, _, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "--") {
		if f := fs.Lookup(name[2:]); f != nil {
			vals := flagValues(f, rest, fs, live)
			for i := range vals {
				vals[i].word = name + "=" + vals[i].word
			}
			return vals
		}
		return nil
	}
	// The word before is a flag that takes a value.
	if n := len(rest); n > 0 {
		if f := flagNamed(fs, rest[n-1]); f != nil && f.Value.Type() != "bool" {
			return flagValues(f, rest, fs, live)
		}
	}
	if strings.HasPrefix(cur, "-") {
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			_, usage := pflag.UnquoteUsage(f)
			out = append(out, candidate{"--" + f.Name, usage})
		})
		return out
	}
	if cmd.Name == "completion" && len(rest) == 0 {
		return []candidate{{"bash", ""}, {"fish", ""}, {"zsh", ""}}
	}
	return out
}

// flagNamed finds the flag a word names: --name (without =VALUE) or a
// lone shorthand -x.
func flagNamed(fs *pflag.FlagSet, word string) *pflag.Flag {
	switch {
	case strings.HasPrefix(word, "--") && !strings.Contains(word, "="):
		return fs.Lookup(word[2:])
	case len(word) == 2 && word[0] == '-' && word[1] != '-':
		return fs.ShorthandLookup(word[1:])
	}
	return nil
}

// flagValues are the values worth offering for f: live names for the
// target flags, the choices a few flags take.
func flagValues(f *pflag.Flag, rest []string, fs *pflag.FlagSet, live names) []candidate {
	switch f.Name {
	case "session":
		return live.sessions()
	case "window":
		return live.windows(typedFlag(fs, rest, "session"))
	case "host":
		return live.hosts()
	case "harness":
		var out []candidate
		for _, h := range integration.Harnesses() {
			out = append(out, candidate{h.ID, h.Name})
		}
		return out
	}
	return nil
}

// typedFlag is the value of the flag name among the words typed, or "".
func typedFlag(fs *pflag.FlagSet, words []string, name string) string {
	f := fs.Lookup(name)
	if f == nil {
		return ""
	}
	for i, w := range words {
		switch {
		case strings.HasPrefix(w, "--"+name+"="):
			return strings.TrimPrefix(w, "--"+name+"=")
		case (w == "--"+name || (f.Shorthand != "" && w == "-"+f.Shorthand)) && i+1 < len(words):
			return words[i+1]
		}
	}
	return ""
}

// filter keeps the candidates that start with what is typed.
func filter(cands []candidate, cur string) []candidate {
	out := cands[:0]
	for _, c := range cands {
		if strings.HasPrefix(c.word, cur) {
			out = append(out, c)
		}
	}
	return out
}

// liveNames asks the running daemon (never starting one) and reads the
// config file.
type liveNames struct{}

func (liveNames) call(verb string, params any, result any) bool {
	c, err := client.Dial(client.Options{})
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(completeTimeout))
	return c.Call(verb, params, result) == nil
}

func (l liveNames) sessions() []candidate {
	var r proto.SessionList
	if !l.call("list-sessions", nil, &r) {
		return nil
	}
	var out []candidate
	for _, s := range r.Sessions {
		desc := fmt.Sprintf("%d windows", s.Windows)
		if s.Display != "" && s.Display != s.Name {
			desc = s.Display + ", " + desc
		}
		out = append(out, candidate{s.Name, desc})
	}
	return out
}

func (l liveNames) windows(session string) []candidate {
	var r proto.WindowList
	if !l.call("list-windows", proto.SessionParams{Session: session}, &r) {
		return nil
	}
	var out []candidate
	for _, w := range r.Windows {
		desc := w.DisplayName
		if w.AgentState != "" && w.AgentState != "none" {
			desc += " (" + w.AgentState + ")"
		}
		if w.Name != "" {
			out = append(out, candidate{w.Name, desc})
		}
		out = append(out, candidate{w.WindowID[:min(8, len(w.WindowID))], desc})
	}
	return out
}

func (liveNames) hosts() []candidate {
	f, _, err := loadHosts()
	if err != nil || f == nil {
		return nil
	}
	var out []candidate
	for name, h := range f.Hosts {
		out = append(out, candidate{name, h.Addr})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].word < out[j].word })
	return out
}

// completionScripts are what `tuios completion SHELL` prints. Each hands
// the words to `tuios __complete` and shows what comes back.
var completionScripts = map[string]string{
	"bash": `# tuios completion for bash: source <(tuios completion bash)
_tuios() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	local IFS=$'\n'
	local out
	out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
	COMPREPLY=()
	local line
	for line in $out; do
		COMPREPLY+=("${line%%$'\t'*}")
	done
	if [ ${#COMPREPLY[@]} -eq 0 ]; then
		compopt -o default 2>/dev/null
	fi
}
complete -F _tuios tuios
`,
	"zsh": `#compdef tuios
# tuios completion for zsh: tuios completion zsh > "${fpath[1]}/_tuios"
_tuios() {
	local -a lines cands
	lines=("${(@f)$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	local l w d
	for l in "${lines[@]}"; do
		[[ -z $l ]] && continue
		w=${l%%$'\t'*}
		d=${l#*$'\t'}
		if [[ $d == $l ]]; then
			cands+=("${w//:/\\:}")
		else
			cands+=("${w//:/\\:}:$d")
		fi
	done
	if (( ${#cands} )); then
		_describe -t tuios 'tuios' cands
	else
		_files
	fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_tuios "$@"
else
	compdef _tuios tuios
fi
`,
	"fish": `# tuios completion for fish: tuios completion fish > ~/.config/fish/completions/tuios.fish
function __tuios_complete
	set -l words (commandline -opc)
	set -e words[1]
	tuios __complete $words (commandline -ct) 2>/dev/null
end
complete -c tuios -f -a '(__tuios_complete)'
`,
}
