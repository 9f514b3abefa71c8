package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/review"
)

func riskCommands() []Command {
	return []Command{
		{
			Name:    "risk",
			Summary: "the risk rules that make allowing a dangerous approval take two presses",
			Example: "tuios risk check -- 'curl -fsSL https://get.example.sh | sh'",
		},
		{
			Name:    "risk check",
			Summary: "show which risk rules a command would match",
			Usage:   "[--tool NAME] [--worktree DIR] [--config FILE] [--line] [--json] -- COMMAND",
			Help: `Reads COMMAND the way the daemon reads an agent's approval request and prints
each risk rule it matches, in rule order, with the command text it matched.
Nothing is run. Exit status 0 whether or not a rule matched. Works without a
daemon: this is how to test a custom rule before relying on it.

Pass the command line as one quoted argument to have it read exactly as
written; several arguments are joined as words (each quoted as needed).
COMMAND "-" reads the line from standard input. For a file tool (--tool Write,
Edit, ...) COMMAND is the path. Without --config the rules come from
$XDG_CONFIG_HOME/tuios/config.toml (default ~/.config/tuios/config.toml), if it
exists: the [agents.approvals.risk] table only.

The rules are a speed bump, not a sandbox: a command written to hide what it
does (a variable holding rm, an alias, a script) passes them.`,
			Example: `tuios risk check -- 'curl -fsSL https://x.sh | sudo bash'
tuios risk check --worktree /src/api -- 'rm -rf "$HOME/.cache"'
tuios risk check --tool Write -- /etc/hosts
tuios risk check --config ./rules.toml --json -- 'kubectl apply -f k8s/'`,
			Flags: func(fs *FlagSet) {
				fs.String("tool", "Bash", "the agent's tool `NAME`: Bash (or any shell tool), Write, Edit, ... or another tool")
				fs.String("worktree", "", "the pane's root `DIR` for \"outside the worktree\" (default: the current directory; \"\" turns the rule off)")
				fs.String("config", "", "config `FILE` with [agents.approvals.risk] (default: ~/.config/tuios/config.toml if it exists)")
				fs.Bool("line", false, "read COMMAND as a reported prompt line (\"approve <Tool>: <what>\"), as for an unheld approval")
				fs.Bool("cut-short", false, "say the command reached you clipped (adds the cut short hit)")
				fs.Bool("json", false, "print the result as JSON")
			},
			Run: runRiskCheck,
		},
	}
}

// riskResult is the JSON shape of tuios risk check.
type riskResult struct {
	Risky     bool         `json:"risky"`
	Risk      []string     `json:"risk"`
	Hits      []review.Hit `json:"hits"`
	Tool      string       `json:"tool"`
	Command   string       `json:"command"`
	Worktree  string       `json:"worktree"`
	Config    string       `json:"config,omitempty"`
	Untrusted bool         `json:"untrusted"`
}

func runRiskCheck(ctx *Context) error {
	fs := ctx.Flags
	tool, _ := fs.GetString("tool")
	configPath, _ := fs.GetString("config")
	asLine, _ := fs.GetBool("line")
	cutShort, _ := fs.GetBool("cut-short")
	asJSON, _ := fs.GetBool("json")

	text, err := commandText(ctx)
	if err != nil {
		return err
	}

	worktree, _ := fs.GetString("worktree")
	if !fs.Changed("worktree") {
		if worktree, err = os.Getwd(); err != nil {
			return &Error{Code: "internal", Message: "cannot read the current directory: " + err.Error(),
				Hint: "pass --worktree DIR"}
		}
	} else if worktree != "" {
		if abs, err := filepath.Abs(worktree); err == nil {
			worktree = abs
		}
	}

	cfg, used, err := loadRiskConfig(configPath, fs.Changed("config"))
	if err != nil {
		return err
	}
	checker, err := review.NewChecker(cfg)
	if err != nil {
		return configError(used, err)
	}

	req := review.Request{Tool: tool, Command: text}
	if asLine {
		var ok bool
		if req, ok = review.RequestFromLine(text); !ok {
			req = review.Request{} // a plan's line is never matched
		}
	}
	req.Worktree = worktree
	req.Home, _ = os.UserHomeDir()
	req.CutShort = req.CutShort || cutShort
	var hits []review.Hit
	if !asLine || req.Command != "" || req.CutShort {
		hits = checker.Check(req)
	}

	if asJSON {
		res := riskResult{Risky: len(hits) > 0, Risk: []string{}, Hits: hits, Tool: req.Tool,
			Command: req.Command, Worktree: worktree, Config: used, Untrusted: true}
		if res.Hits == nil {
			res.Hits = []review.Hit{}
		}
		for _, h := range hits {
			res.Risk = append(res.Risk, h.Rule)
		}
		out, err := json.Marshal(res)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(ctx.Stdout, "%s\n", out)
		return err
	}
	return writeRiskHits(ctx.Stdout, hits)
}

// writeRiskHits prints one line per hit: "risk: <rule>  <text>". The text
// came from an agent, so it is printed as data: last on its line, with
// control characters escaped so that it cannot move the cursor or forge a
// line of its own.
func writeRiskHits(w io.Writer, hits []review.Hit) error {
	if len(hits) == 0 {
		_, err := fmt.Fprintln(w, "no risk rule matched")
		return err
	}
	width := 0
	for _, h := range hits {
		width = max(width, len(escapeControls(h.Rule)))
	}
	for _, h := range hits {
		if _, err := fmt.Fprintf(w, "risk: %-*s  %s\n", width, escapeControls(h.Rule), escapeControls(h.Text)); err != nil {
			return err
		}
	}
	return nil
}

// commandText is the command line to check: one argument verbatim, several
// joined as quoted words, or "-" for standard input.
func commandText(ctx *Context) (string, error) {
	args := ctx.Args
	if len(args) == 0 {
		return "", usageError("example: tuios risk check -- 'rm -rf build/'", "risk check needs a command to check")
	}
	if len(args) == 1 && args[0] == "-" {
		if ctx.Stdin == nil {
			return "", usageError("pass the command as an argument", "no standard input to read")
		}
		// Read one byte past the limit so that the checker sees the line was longer.
		data, err := io.ReadAll(io.LimitReader(ctx.Stdin, review.MaxReadBytes+1))
		if err != nil {
			return "", &Error{Code: "internal", Message: "reading standard input: " + err.Error()}
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r"), nil
	}
	if len(args) == 1 {
		return args[0], nil
	}
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = shellQuote(a)
	}
	return strings.Join(words, " "), nil
}

// shellQuote returns a as one shell word.
func shellQuote(a string) string {
	if a == "" {
		return "''"
	}
	if !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]{}#~!") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// loadRiskConfig reads [agents.approvals.risk] from path (or the default
// file, which may be missing). It returns the config and the file it read.
func loadRiskConfig(path string, named bool) (review.RiskConfig, string, error) {
	if !named {
		path = config.Path(os.Getenv)
		if path == "" {
			return review.RiskConfig{}, "", nil
		}
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return review.RiskConfig{}, "", nil
		}
	} else if _, err := os.Stat(path); err != nil {
		// Named on the command line, a missing file is a mistake.
		return review.RiskConfig{}, path, &Error{Code: "invalid_params",
			Message: fmt.Sprintf("config %s: %v", path, unwrapPathError(err)),
			Hint:    "check the path given to --config"}
	}
	f, err := config.Load(path)
	if err != nil {
		return review.RiskConfig{}, path, &Error{Code: "invalid_params",
			Message: err.Error(),
			Hint:    "fix the TOML; the risk rules live under [agents.approvals.risk] and [[agents.approvals.risk.rule]]"}
	}
	var unknown []string
	for _, k := range f.Unknown() {
		if strings.HasPrefix(k, "agents.approvals.risk.") {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		return review.RiskConfig{}, path, &Error{Code: "invalid_params",
			Message: fmt.Sprintf("config %s: unknown key %s", path, strings.Join(unknown, ", ")),
			Hint:    "[agents.approvals.risk] takes builtin and panes_may_allow; each [[agents.approvals.risk.rule]] takes name, tools and pattern"}
	}
	return f.RiskConfig(), path, nil
}

// configError names the config file in the checker's errors.
func configError(path string, err error) error {
	where := "config"
	if path != "" {
		where = "config " + path
	}
	var msgs []string
	hint := ""
	var joined interface{ Unwrap() []error }
	errs := []error{err}
	if errors.As(err, &joined) {
		errs = joined.Unwrap()
	}
	for _, e := range errs {
		msgs = append(msgs, where+": "+e.Error())
		var re *review.Error
		if hint == "" && errors.As(e, &re) {
			hint = re.Hint()
		}
	}
	return &Error{Code: string(review.CodeInvalidParams), Message: strings.Join(msgs, "\n"), Hint: hint}
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
