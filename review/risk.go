package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// RiskConfig is the decoded [agents.approvals.risk] part of the config file.
// The package does not read files: the caller decodes TOML into this shape.
//
//	[agents.approvals.risk]
//	builtin = true            # false drops every shipped rule
//
//	[[agents.approvals.risk.rule]]
//	name = "kubectl apply"
//	tools = ["Bash"]          # empty = every tool
//	pattern = '\bkubectl\s+(apply|delete)\b'   # RE2
type RiskConfig struct {
	// Builtin turns the shipped rules on or off; nil means on.
	Builtin *bool `toml:"builtin" json:"builtin,omitempty"`
	// Rules are the person's own rules. They come after the shipped ones in
	// hit order.
	Rules []RiskRule `toml:"rule" json:"rule,omitempty"`
}

// RiskRule is one custom rule.
type RiskRule struct {
	// Name is shown as the hit's rule name. Required.
	Name string `toml:"name" json:"name"`
	// Tools limits the rule to calls of these tools; empty means every tool.
	// Names compare case-insensitively. Naming any shell tool (Bash, shell,
	// exec_command, …) covers all of them and a call with no tool; naming any
	// file tool (Write, Edit, MultiEdit, …) covers all of them.
	Tools []string `toml:"tools" json:"tools,omitempty"`
	// Pattern is an RE2 regular expression (Go's regexp syntax). For shell
	// calls it is matched against each command's raw text, for any other tool
	// against the whole text. Required.
	Pattern string `toml:"pattern" json:"pattern"`
}

// Request is one call to judge.
type Request struct {
	// Tool is the harness's tool name (Bash, Write, Edit, WebFetch, …).
	// Empty means a shell command line with no tool.
	Tool string
	// Command is the command line for a shell tool, the path for a file tool,
	// and the whole text for any other tool.
	Command string
	// Worktree is the pane's root: the session's worktree path, else the
	// pane's working directory. Empty turns "outside the worktree" off.
	Worktree string
	// Dir is the directory relative paths are read from: the pane's
	// working directory when it is known and differs from Worktree. Empty
	// means Worktree. A relative path that climbs out of the worktree
	// (../x, sub/../../x) is outside it.
	Dir string
	// Home is the home directory, for "~" and "$HOME". Empty means unknown:
	// such paths then count as outside.
	Home string
	// CutShort says the text reached the caller clipped (a hook cut it, a
	// dialog said "(not all shown)"). The result then carries the "cut short"
	// hit.
	CutShort bool
}

// Hit is one rule that matched.
type Hit struct {
	// Rule is the rule's name: a shipped name, a custom rule's name, or
	// "cut short".
	Rule string `json:"rule"`
	// Why says what the rule guards against, in a few words.
	Why string `json:"why"`
	// Text is the command text the rule matched, clipped to 100 characters.
	// It came from an agent: print it fenced, as data.
	Text string `json:"text"`
}

// Error is a configuration error: a stable code, a one-line message, a hint
// that says what to do next, and the rule it is about.
type Error struct {
	code    Code
	Message string
	hint    string
	// Rule is the rule's name, or "rule N" (1-based) for a rule with no name.
	Rule string
}

func (e *Error) Error() string { return e.Message }

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next.
func (e *Error) Hint() string { return e.hint }

// MarshalJSON writes {"code", "message", "hint", "rule"}.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
		Hint    string `json:"hint,omitempty"`
		Rule    string `json:"rule,omitempty"`
	}{e.code, e.Message, e.hint, e.Rule})
}

// Code is the stable code of an *Error.
type Code string

// CodeInvalidParams is the code of every configuration error.
const CodeInvalidParams Code = "invalid_params"

// Checker judges calls against the shipped rules and the custom rules. It
// holds no mutable state: one Checker may be used from many goroutines.
type Checker struct {
	builtin bool
	custom  []customRule
}

type customRule struct {
	name  string
	re    *regexp.Regexp
	all   bool // no tools named
	shell bool // covers every shell tool and no tool
	file  bool // covers every file tool
	tools []string
}

// NewChecker compiles cfg. A custom rule with an empty name, an empty
// pattern or a pattern that does not compile is an error (an *Error naming
// the rule, joined with errors.Join when there are several). The returned
// Checker is never nil: on error it holds the shipped rules and every good
// custom rule, so a caller that only warns (the daemon drops bad rules) can
// keep using it, and a strict caller (tuios risk check) refuses.
func NewChecker(cfg RiskConfig) (*Checker, error) {
	c := &Checker{builtin: cfg.Builtin == nil || *cfg.Builtin}
	var errs []error
	for i, r := range cfg.Rules {
		label := r.Name
		if strings.TrimSpace(label) == "" {
			label = fmt.Sprintf("rule %d", i+1)
		}
		fail := func(msg, hint string) {
			errs = append(errs, &Error{code: CodeInvalidParams, Rule: label,
				Message: fmt.Sprintf("risk rule %q: %s", label, msg), hint: hint})
		}
		if strings.TrimSpace(r.Name) == "" {
			fail("has no name", "give every [[agents.approvals.risk.rule]] a name; it is what a person sees")
			continue
		}
		if r.Pattern == "" {
			fail("has no pattern", `set pattern to an RE2 regular expression, e.g. '\bkubectl\s+apply\b'`)
			continue
		}
		re, err := regexp.Compile(r.Pattern)
		if err != nil {
			fail(fmt.Sprintf("pattern %q does not compile: %v", r.Pattern, err),
				"fix the pattern (RE2 syntax as in Go's regexp; no look-around or back-references) or remove the rule")
			continue
		}
		cr := customRule{name: r.Name, re: re, all: len(r.Tools) == 0}
		for _, t := range r.Tools {
			switch toolKindOf(t) {
			case shellTool:
				cr.shell = true
			case fileTool:
				cr.file = true
			default:
				cr.tools = append(cr.tools, strings.ToLower(t))
			}
		}
		c.custom = append(c.custom, cr)
	}
	return c, errors.Join(errs...)
}

type toolKind int

const (
	otherTool toolKind = iota
	shellTool
	fileTool
)

// toolKindOf sorts a tool name: a shell tool (or no tool), a file tool, or
// anything else.
func toolKindOf(tool string) toolKind {
	switch strings.ToLower(strings.TrimSpace(tool)) {
	case "", "bash", "shell", "exec_command", "local_shell", "run_shell_command", "execute", "terminal":
		return shellTool
	case "write", "edit", "multiedit", "notebookedit", "patch", "write_file", "replace":
		return fileTool
	}
	return otherTool
}

func (r *customRule) covers(kind toolKind, tool string) bool {
	switch {
	case r.all:
		return true
	case kind == shellTool:
		return r.shell
	case kind == fileTool:
		return r.file
	}
	return contains(r.tools, strings.ToLower(strings.TrimSpace(tool)))
}

// Check returns the rules req matches, in rule order (shipped, then custom,
// then "cut short"), each once. No match is an empty result.
func (c *Checker) Check(req Request) []Hit {
	text := req.Command
	cut := req.CutShort
	if len(text) > MaxReadBytes {
		text = cutUTF8(text, MaxReadBytes)
		cut = true
	}
	e := &env{root: strings.TrimSpace(req.Worktree), home: strings.TrimSpace(req.Home), dir: strings.TrimSpace(req.Dir)}
	if e.dir == "" {
		e.dir = e.root
	}
	kind := toolKindOf(req.Tool)
	var hits []Hit
	add := func(name, why, matched string) {
		for _, h := range hits {
			if h.Rule == name {
				return
			}
		}
		hits = append(hits, Hit{Rule: name, Why: why, Text: clip(matched)})
	}

	switch kind {
	case shellTool:
		var r reader
		r.read(text)
		if r.deep {
			cut = true
		}
		e.dirOf = cdDirs(r.cmds, e.home, e.dir)
		if c.builtin {
			for i := range shipped {
				rule := &shipped[i]
				if rule.name == RulePipeToShell {
					if m, ok := pipeToShell(r.cmds); ok {
						add(rule.name, rule.why, m)
					}
					continue
				}
				for _, cmd := range r.cmds {
					if rule.match(cmd, e) {
						add(rule.name, rule.why, cmd.raw())
						break
					}
				}
			}
		}
		for i := range c.custom {
			cr := &c.custom[i]
			if !cr.covers(kind, req.Tool) {
				continue
			}
			for _, cmd := range r.cmds {
				if raw := cmd.raw(); cr.re.MatchString(raw) || (cmd.heredoc != "" && cr.re.MatchString(cmd.heredoc)) {
					add(cr.name, customWhy, raw)
					break
				}
			}
		}
	default:
		if kind == fileTool && c.builtin {
			if p := strings.TrimSpace(text); isOutside(p, e.root, e.home, e.dir) {
				add(RuleOutside, shipped[len(shipped)-1].why, p)
			}
		}
		for i := range c.custom {
			cr := &c.custom[i]
			if cr.covers(kind, req.Tool) && cr.re.MatchString(text) {
				add(cr.name, customWhy, text)
			}
		}
	}
	if cut {
		add(RuleCutShort, whyCutShort, text)
	}
	return hits
}

const customWhy = "matches a rule in your config"

// pipeToShell finds a curl or wget that feeds a shell or interpreter: earlier
// in the same pipeline, or inside a substitution of a command that runs the
// text. It returns the matched text. One pass: the commands of a pipeline
// are in line order.
func pipeToShell(cmds []*command) (string, bool) {
	var download map[int]*command // first download of each pipeline
	for _, c := range cmds {
		if d := download[c.pipe]; d != nil && pipeTarget(c) {
			if c.line == d.line && c.end > d.start {
				return strings.TrimSpace(d.line[d.start:c.end]), true
			}
			return c.raw(), true
		}
		if !isDownload(c) {
			continue
		}
		if c.feeder != nil {
			return c.feeder.raw(), true
		}
		if download == nil {
			download = map[int]*command{}
		}
		if download[c.pipe] == nil {
			download[c.pipe] = c
		}
	}
	return "", false
}

// Rules returns the names of the rules c checks, in hit order, without "cut
// short".
func (c *Checker) Rules() []string {
	var names []string
	if c.builtin {
		for _, r := range shipped {
			names = append(names, r.name)
		}
	}
	for _, r := range c.custom {
		names = append(names, r.name)
	}
	return names
}

// RequestFromLine reads a reported prompt line the way the daemon reads an
// unheld approval: "approve <Tool>: <what>" (the tool has no spaces) is that
// tool and argument, and any other line is a shell command with no tool. A
// line ending "(not all shown)", or clipped with a trailing "…", is cut
// short. A plan's line ("plan: <title>") is never matched: ok is false.
// The caller fills in Worktree and Home.
func RequestFromLine(line string) (req Request, ok bool) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "plan: ") {
		return Request{}, false
	}
	if rest, found := strings.CutSuffix(line, "(not all shown)"); found {
		line = strings.TrimSpace(rest)
		req.CutShort = true
	}
	if rest, found := strings.CutSuffix(line, "…"); found {
		line = strings.TrimSpace(rest)
		req.CutShort = true
	}
	if rest, found := strings.CutPrefix(line, "approve "); found {
		tool, what, has := strings.Cut(rest, ":")
		if has && tool != "" && !strings.ContainsAny(tool, " \t") {
			req.Tool = tool
			req.Command = strings.TrimSpace(what)
			return req, true
		}
	}
	req.Command = line
	return req, true
}

// clip trims s and cuts it to ClipRunes characters.
func clip(s string) string {
	s = strings.TrimSpace(s)
	n := 0
	for i := range s {
		if n == ClipRunes {
			return strings.TrimSpace(s[:i])
		}
		n++
	}
	return s
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
