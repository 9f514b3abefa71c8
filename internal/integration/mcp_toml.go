package integration

import (
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Codex's config.toml is edited as text (the marked block), so that every
// byte of the person's file stays as it was; it is parsed before and
// after, so that the edit never turns a good file bad nor touches one
// that is bad already. TOML can define a table in several ways that a
// plain search misses ([mcp_servers] with tuios = {…}, mcp_servers =
// {…}, [mcp_servers."tuios"], [ mcp_servers.tuios ]), and one of them
// (an inline mcp_servers = {…}) takes no [mcp_servers.tuios] after it.

// tomlDoc parses a TOML document into its tables.
func tomlDoc(text string) (map[string]any, error) {
	var doc map[string]any
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// tomlCheck says why text is not TOML (nil when it is), on one line.
func tomlCheck(text string) error {
	_, err := tomlDoc(text)
	return err
}

// tomlHasServer says whether the document defines mcp_servers.NAME,
// however it is written.
func tomlHasServer(text, name string) bool {
	doc, err := tomlDoc(text)
	if err != nil {
		return false
	}
	servers, ok := doc["mcp_servers"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = servers[name]
	return ok
}

// tomlInstall puts block (tuios's marked [mcp_servers.tuios]) into a
// config.toml's text, or says why not: the text is not TOML, it defines
// mcp_servers.tuios itself, or the result would not be TOML.
func tomlInstall(old, block, file string) (string, error) {
	if err := tomlCheck(old); err != nil {
		return "", &Error{code: CodeCannotRead, Path: file, Detail: "it is not valid TOML (" + firstLine(err) + "); nothing was changed"}
	}
	rest := old
	if b, ok := tomlFindBlock(old); ok {
		rest = old[:b[0]] + old[b[1]:]
	}
	if tomlHasServer(rest, mcpServerName) {
		return "", &Error{code: CodeNotOurs, Path: file, Detail: "it defines mcp_servers.tuios, which tuios did not write; nothing was changed"}
	}
	next := tomlSetBlock(old, block)
	if err := tomlCheck(next); err != nil {
		return "", &Error{code: CodeNotOurs, Path: file,
			Detail: "its mcp_servers cannot take a [mcp_servers.tuios] table (an inline mcp_servers = {…} is closed to more): add tuios to it yourself, or write it as [mcp_servers.NAME] tables; nothing was changed"}
	}
	return next, nil
}

// firstLine keeps an error message to one line.
func firstLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}
