package integration

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MCPVersion is the version of the MCP server entry: `tuios mcp
// --integration MCPVersion`. An entry of another version is replaced.
const MCPVersion = 1

// mcpServerName is the entry's name in every harness's MCP config.
const mcpServerName = "tuios"

// MCPOptions are the choices of one MCP install.
type MCPOptions struct {
	Env Env
	// Program is the tuios the harness starts; empty keeps the one an
	// existing entry runs, else Default.
	Program, Default string
	// Write registers `tuios mcp --write`: the tools that type into panes.
	Write bool
}

// mcpTarget is where a harness keeps its MCP servers.
type mcpTarget struct {
	file string
	// path is the JSON object holding the servers, by key from the root
	// (empty for a TOML file).
	path  string
	entry func(prog string, args []string) any
	toml  bool
}

// MCPHarnesses are the harnesses `integration install --mcp` knows.
var mcpHarnesses = []string{"claude-code", "codex", "gemini-cli", "opencode"}

// SupportsMCP says whether tuios can register its MCP server for h.
func SupportsMCP(h Harness) bool {
	for _, id := range mcpHarnesses {
		if id == h.ID {
			return true
		}
	}
	return false
}

func mcpTargetOf(h Harness, env Env) (mcpTarget, bool) {
	dir := h.ConfigDir(env)
	switch h.ID {
	case "claude-code":
		// ~/.claude.json (in $CLAUDE_CONFIG_DIR when that is set) holds
		// the user-scope servers.
		f := filepath.Join(env.Home, ".claude.json")
		if d := env.get("CLAUDE_CONFIG_DIR"); d != "" {
			f = filepath.Join(d, ".claude.json")
		}
		return mcpTarget{file: f, path: "mcpServers", entry: func(prog string, args []string) any {
			return map[string]any{"type": "stdio", "command": prog, "args": args}
		}}, true
	case "gemini-cli":
		return mcpTarget{file: filepath.Join(dir, "settings.json"), path: "mcpServers", entry: func(prog string, args []string) any {
			return map[string]any{"command": prog, "args": args}
		}}, true
	case "opencode":
		f := filepath.Join(dir, "opencode.json")
		if _, err := os.Stat(f); err != nil {
			if _, err := os.Stat(filepath.Join(dir, "opencode.jsonc")); err == nil {
				f = filepath.Join(dir, "opencode.jsonc")
			}
		}
		return mcpTarget{file: f, path: "mcp", entry: func(prog string, args []string) any {
			return map[string]any{"type": "local", "command": append([]string{prog}, args...), "enabled": true}
		}}, true
	case "codex":
		return mcpTarget{file: filepath.Join(dir, "config.toml"), toml: true}, true
	}
	return mcpTarget{}, false
}

// mcpArgs are the arguments after the program in the entry.
func mcpArgs(write bool) []string {
	a := []string{"mcp", "--integration", strconv.Itoa(MCPVersion)}
	if write {
		a = append(a, "--write")
	}
	return a
}

func noMCP(h Harness) error {
	return &Error{code: CodeNoIntegration, Harness: h.ID, Detail: "tuios registers its MCP server only for " + strings.Join(mcpHarnesses, ", ")}
}

// InstallMCP registers `tuios mcp` as an MCP server of the harness,
// keeping every other byte of its config file.
func InstallMCP(h Harness, opt MCPOptions) (Result, error) {
	t, ok := mcpTargetOf(h, opt.Env)
	res := Result{Harness: h.ID, Files: []string{t.file}}
	if !ok {
		return res, noMCP(h)
	}
	dir := h.ConfigDir(opt.Env)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return res, &Error{code: CodeNoConfigDir, Harness: h.ID, Path: dir}
	}
	args := mcpArgs(opt.Write)
	original := func(old string) bool {
		ours, _, _ := mcpState(t, old)
		return !ours
	}
	var err error
	res.Changed, err = editFileKeeping(t.file, original, func(old string, exists bool) (string, error) {
		_, prog, err := mcpState(t, old)
		if err != nil {
			return "", &Error{code: CodeCannotRead, Path: t.file, Detail: err.Error()}
		}
		if opt.Program != "" {
			prog = opt.Program
		}
		if prog == "" {
			prog = opt.Default
		}
		res.Program = prog
		if t.toml {
			return tomlInstall(old, tomlBlock(prog, args), t.file)
		}
		out, err := jsonSetServer(old, t.path, t.entry(prog, args))
		if ie, ok := err.(*Error); ok {
			ie.Path = t.file
			return "", ie
		}
		if err != nil {
			return "", &Error{code: CodeCannotRead, Path: t.file, Detail: err.Error()}
		}
		return out, nil
	})
	if _, serr := os.Stat(t.file + BackupSuffix); serr == nil && res.Changed {
		res.Backup = t.file + BackupSuffix
	}
	if opt.Write {
		res.Note = "the harness's agent can now type into panes through tuios (tuios_send_text, tuios_send_keys, tuios_ask_agent, tuios_respond, tuios_fan)"
	}
	return res, err
}

// UninstallMCP removes exactly the entry InstallMCP wrote.
func UninstallMCP(h Harness, env Env) (Result, error) {
	t, ok := mcpTargetOf(h, env)
	res := Result{Harness: h.ID, Files: []string{t.file}}
	if !ok {
		return res, noMCP(h)
	}
	if _, err := os.Stat(t.file); errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	never := func(string) bool { return false }
	var err error
	res.Changed, err = editFileKeeping(t.file, never, func(old string, exists bool) (string, error) {
		if t.toml {
			// Only the marked block goes; a file that parsed before must
			// parse after (one that did not is no worse for it).
			next := tomlRemoveBlock(old)
			if tomlCheck(old) == nil {
				if err := tomlCheck(next); err != nil {
					return "", &Error{code: CodeCannotRead, Path: t.file, Detail: "taking tuios's block out would leave it invalid (" + firstLine(err) + "); nothing was changed"}
				}
			}
			return next, nil
		}
		out, err := jsonRemoveServer(old, t.path)
		if err != nil {
			return "", &Error{code: CodeCannotRead, Path: t.file, Detail: err.Error()}
		}
		return out, nil
	})
	if err != nil {
		return res, err
	}
	// A file tuios created for the entry alone goes with it.
	if text, exists, _ := readFile(t.file); exists && !t.toml && emptyObject(text) {
		if _, err := os.Stat(t.file + BackupSuffix); errors.Is(err, fs.ErrNotExist) {
			return res, removeFile(t.file)
		}
	}
	if text, exists, _ := readFile(t.file); exists && t.toml && strings.TrimSpace(text) == "" {
		if _, err := os.Stat(t.file + BackupSuffix); errors.Is(err, fs.ErrNotExist) {
			return res, removeFile(t.file)
		}
	}
	return res, nil
}

// MCPFile is the file that holds the harness's MCP servers, or "" for a
// harness tuios registers no MCP server with.
func MCPFile(h Harness, env Env) string {
	t, ok := mcpTargetOf(h, env)
	if !ok {
		return ""
	}
	return t.file
}

// MCPInstalled says whether the harness's config holds tuios's entry.
func MCPInstalled(h Harness, env Env) bool {
	t, ok := mcpTargetOf(h, env)
	if !ok {
		return false
	}
	text, _, err := readFile(t.file)
	if err != nil {
		return false
	}
	ours, _, _ := mcpState(t, text)
	return ours
}

// mcpState reads the text: whether tuios's entry is there, and the
// program it runs.
func mcpState(t mcpTarget, text string) (ours bool, prog string, err error) {
	if t.toml {
		b, ok := tomlFindBlock(text)
		if !ok {
			return false, "", nil
		}
		for _, line := range strings.Split(text[b[0]:b[1]], "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "command = "); ok {
				var s string
				if json.Unmarshal([]byte(v), &s) == nil {
					prog = s
				}
			}
		}
		return true, prog, nil
	}
	if strings.TrimSpace(text) == "" {
		return false, "", nil
	}
	root, err := parseJSON(text)
	if err != nil {
		return false, "", err
	}
	n := root.get(t.path).get(mcpServerName)
	if n == nil {
		return false, "", nil
	}
	return ourEntry(text[n.start:n.end])
}

// ourEntry says whether a server entry is one tuios wrote: it runs
// `PROGRAM mcp --integration N`.
func ourEntry(raw string) (bool, string, error) {
	var e struct {
		Command json.RawMessage `json:"command"`
		Args    []string        `json:"args"`
	}
	if json.Unmarshal([]byte(raw), &e) != nil {
		return false, "", nil
	}
	var argv []string
	var cmd string
	if json.Unmarshal(e.Command, &cmd) == nil {
		argv = append([]string{cmd}, e.Args...)
	} else if json.Unmarshal(e.Command, &argv) != nil {
		return false, "", nil
	}
	if len(argv) >= 4 && argv[1] == "mcp" && argv[2] == "--integration" {
		return true, argv[0], nil
	}
	return false, "", nil
}

// jsonSetServer puts entry at path.tuios, adding what is missing and
// replacing only tuios's own entry; a tuios server of the person's own is
// refused.
func jsonSetServer(src, path string, entry any) (string, error) {
	if strings.TrimSpace(src) == "" {
		src = "{}\n"
	}
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	if root.kind != '{' {
		return "", errors.New("the file is not a JSON object")
	}
	servers := root.get(path)
	if servers == nil {
		return appendTo(src, root, path, map[string]any{mcpServerName: entry}), nil
	}
	if servers.kind != '{' {
		return "", errors.New(path + " is not an object")
	}
	cur := servers.get(mcpServerName)
	if cur == nil {
		return appendTo(src, servers, mcpServerName, entry), nil
	}
	if ours, _, _ := ourEntry(src[cur.start:cur.end]); !ours {
		return "", &Error{code: CodeNotOurs, Detail: "its " + path + " has a server named tuios that tuios did not write; nothing was changed"}
	}
	return replaceValue(src, cur, entry), nil
}

// jsonRemoveServer takes tuios's entry out of path, and path with it when
// nothing else is left in it.
func jsonRemoveServer(src, path string) (string, error) {
	if strings.TrimSpace(src) == "" {
		return src, nil
	}
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	servers := root.get(path)
	if servers == nil || servers.kind != '{' {
		return src, nil
	}
	for i := len(servers.members) - 1; i >= 0; i-- {
		m := servers.members[i]
		if m.key != mcpServerName {
			continue
		}
		if ours, _, _ := ourEntry(src[m.val.start:m.val.end]); !ours {
			return src, nil // the person's own: not ours to remove
		}
		if len(servers.members) == 1 && !commentedAround(src, servers) {
			for j := len(root.members) - 1; j >= 0; j-- {
				if root.members[j].val == servers {
					return removeAt(src, root, j), nil
				}
			}
		}
		return removeAt(src, servers, i), nil
	}
	return src, nil
}

// The Codex entry is a TOML table between two marker comments, so that
// uninstall removes exactly what install wrote.
const (
	tomlBegin = "# BEGIN tuios mcp (written by tuios integration install --mcp; tuios integration uninstall --mcp removes it)"
	tomlEnd   = "# END tuios mcp"
)

func tomlBlock(prog string, args []string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) } // a JSON string is a TOML basic string
	var qa []string
	for _, a := range args {
		qa = append(qa, q(a))
	}
	return tomlBegin + "\n[mcp_servers." + mcpServerName + "]\ncommand = " + q(prog) + "\nargs = [" + strings.Join(qa, ", ") + "]\n" + tomlEnd + "\n"
}

// tomlFindBlock is the span of the marked block, its lines whole.
func tomlFindBlock(text string) ([2]int, bool) {
	b := strings.Index(text, tomlBegin)
	if b < 0 || (b > 0 && text[b-1] != '\n') {
		return [2]int{}, false
	}
	e := strings.Index(text[b:], tomlEnd)
	if e < 0 {
		return [2]int{}, false
	}
	e += b + len(tomlEnd)
	if e < len(text) && text[e] == '\n' {
		e++
	}
	return [2]int{b, e}, true
}

// tomlSetBlock replaces the marked block, or adds it at the end, after a
// blank line.
func tomlSetBlock(text, block string) string {
	if b, ok := tomlFindBlock(text); ok {
		return text[:b[0]] + block + text[b[1]:]
	}
	switch {
	case text == "":
		return block
	case strings.HasSuffix(text, "\n\n"):
		return text + block
	case strings.HasSuffix(text, "\n"):
		return text + "\n" + block
	}
	return text + "\n\n" + block
}

// tomlRemoveBlock takes the marked block out, with the blank line
// tomlSetBlock put before it.
func tomlRemoveBlock(text string) string {
	b, ok := tomlFindBlock(text)
	if !ok {
		return text
	}
	before, after := text[:b[0]], text[b[1]:]
	if after == "" && strings.HasSuffix(before, "\n\n") {
		before = before[:len(before)-1]
	}
	return before + after
}
