package integration

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlHooks wires hook entries into the hooks: block of a YAML config
// file, the way Hermes Agent's config.yaml holds its shell hooks:
//
//	hooks:
//	  on_session_start:
//	    - command: "..."
//	      timeout: 10
//
// The file is edited as a YAML document (its node tree), so the person's
// comments, other keys and other hooks survive; only the entries whose
// command runs agent-hook for the harness (ourCommand) are tuios's. A
// file that holds no entry of tuios's is given back byte for byte, and so
// is one that holds exactly what install would write, so a second
// install changes nothing. A hooks: that is not a mapping, or an event
// whose value is not a list, is refused: tuios does not guess what the
// person meant there.
type yamlHooks struct {
	events  []string // the events to wire, in the order they are added
	timeout int      // seconds
}

func (y *yamlHooks) wired() []string { return y.events }

// same: both parse, and encode to the same text (their comments, keys
// and values agree; only layout such as blank lines may differ).
func (y *yamlHooks) same(a, b string) bool {
	da, erra := yamlDoc(a)
	db, errb := yamlDoc(b)
	if erra != nil || errb != nil || da == nil || db == nil {
		return false
	}
	ea, erra := encodeYAML(da)
	eb, errb := encodeYAML(db)
	return erra == nil && errb == nil && ea == eb
}

// yamlDoc parses src into its document node; nil for a file with no
// document (empty, or only comments).
func yamlDoc(src string) (doc *yaml.Node, err error) {
	// The decoder is outside code reading the person's file: whatever it
	// does with a malformed one must come back as an error, never take
	// tuios down.
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("cannot parse YAML: %v", r)
		}
	}()
	dec := yaml.NewDecoder(strings.NewReader(src))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, errors.New("more than one YAML document in it")
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return nil, errors.New("not one YAML document")
	}
	root := n.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return &n, nil // a document that is only comments or ~
	}
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("its top level is not a mapping")
	}
	return &n, nil
}

// mapGet is the value node for key in a mapping node, and its index.
func mapGet(m *yaml.Node, key string) (*yaml.Node, int) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1], i
		}
	}
	return nil, -1
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// yamlHookEntry is one entry of tuios's in an event's list.
type yamlHookEntry struct {
	ourHook
	list  *yaml.Node // the event's sequence
	index int        // the entry's place in it
}

// entries finds tuios's entries in the document's hooks: block.
func (y *yamlHooks) entries(doc *yaml.Node, harness string) []yamlHookEntry {
	if doc == nil || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	hooks, _ := mapGet(doc.Content[0], "hooks")
	if hooks == nil || hooks.Kind != yaml.MappingNode {
		return nil
	}
	re := ourCommand(harness)
	var out []yamlHookEntry
	for i := 0; i+1 < len(hooks.Content); i += 2 {
		event, list := hooks.Content[i].Value, hooks.Content[i+1]
		if list.Kind != yaml.SequenceNode {
			continue
		}
		for j, e := range list.Content {
			if e.Kind != yaml.MappingNode {
				continue
			}
			cmd, _ := mapGet(e, "command")
			if cmd == nil || cmd.Kind != yaml.ScalarNode {
				continue
			}
			if ours, ok := readOurHook(re, event, cmd.Value); ok {
				out = append(out, yamlHookEntry{ourHook: ours, list: list, index: j})
			}
		}
	}
	return out
}

// encodeYAML writes the document back, two spaces to a level as Hermes's
// own examples are.
func encodeYAML(doc *yaml.Node) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// remove takes tuios's entries out of the tree, and the event keys and
// the hooks: key they leave empty.
func (y *yamlHooks) remove(doc *yaml.Node, found []yamlHookEntry) {
	for k := len(found) - 1; k >= 0; k-- {
		f := found[k]
		f.list.Content = append(f.list.Content[:f.index:f.index], f.list.Content[f.index+1:]...)
	}
	root := doc.Content[0]
	hooks, hi := mapGet(root, "hooks")
	for i := 0; i+1 < len(hooks.Content); {
		if v := hooks.Content[i+1]; v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
			hooks.Content = append(hooks.Content[:i:i], hooks.Content[i+2:]...)
			continue
		}
		i += 2
	}
	if len(hooks.Content) == 0 {
		root.Content = append(root.Content[:hi:hi], root.Content[hi+2:]...)
	}
}

// uninstall removes every entry tuios wrote for the harness.
func (y *yamlHooks) uninstall(src, harness string) (string, error) {
	doc, err := yamlDoc(src)
	if err != nil {
		return "", err
	}
	found := y.entries(doc, harness)
	if len(found) == 0 {
		return src, nil
	}
	y.remove(doc, found)
	if len(doc.Content[0].Content) == 0 && strings.TrimSpace(doc.HeadComment+doc.Content[0].HeadComment+doc.FootComment) == "" {
		return "", nil // nothing but tuios's hooks was in it
	}
	return encodeYAML(doc)
}

// install returns the file with exactly one current entry per event.
func (y *yamlHooks) install(src, harness, command string) (string, error) {
	doc, err := yamlDoc(src)
	if err != nil {
		return "", err
	}
	if y.holdsExactly(doc, harness, command) {
		return src, nil
	}
	lead := "" // a file of comments only holds no document: they stay on top
	if doc == nil {
		doc = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
		if strings.TrimSpace(src) != "" {
			if !commentsOnly(src) {
				return "", errors.New("it holds no YAML document tuios can read")
			}
			lead = strings.TrimSuffix(src, "\n") + "\n"
		}
	}
	if found := y.entries(doc, harness); len(found) > 0 {
		y.remove(doc, found)
	}
	root := doc.Content[0]
	if isNull(root) { // a file of comments only: they stay above the mapping
		*root = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: root.HeadComment, LineComment: root.LineComment, FootComment: root.FootComment}
	}
	hooks, _ := mapGet(root, "hooks")
	switch {
	case hooks == nil:
		hooks = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		root.Content = append(root.Content, scalar("hooks"), hooks)
	case isNull(hooks):
		*hooks = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", LineComment: hooks.LineComment, HeadComment: hooks.HeadComment}
	case hooks.Kind != yaml.MappingNode:
		return "", fmt.Errorf("hooks: is not a mapping of events (line %d)", hooks.Line)
	}
	for _, e := range y.events {
		list, _ := mapGet(hooks, e)
		switch {
		case list == nil:
			list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			hooks.Content = append(hooks.Content, scalar(e), list)
		case isNull(list):
			*list = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", LineComment: list.LineComment, HeadComment: list.HeadComment}
		case list.Kind != yaml.SequenceNode:
			return "", fmt.Errorf("hooks.%s is not a list of hooks (line %d)", e, list.Line)
		}
		list.Style = 0 // a flow list ([]) becomes a block one, to take a mapping
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
			scalar("command"), {Kind: yaml.ScalarNode, Tag: "!!str", Value: command, Style: yaml.DoubleQuotedStyle},
			scalar("timeout"), {Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(y.timeout)},
		}})
	}
	out, err := encodeYAML(doc)
	return lead + out, err
}

// holdsExactly says whether the document already holds what install
// would write: one entry per event, with this command and timeout.
func (y *yamlHooks) holdsExactly(doc *yaml.Node, harness, command string) bool {
	found := y.entries(doc, harness)
	if len(found) != len(y.events) {
		return false
	}
	want := map[string]bool{}
	for _, e := range y.events {
		want[e] = true
	}
	for _, f := range found {
		e := f.list.Content[f.index]
		t, _ := mapGet(e, "timeout")
		if !want[f.event] || f.command != command || len(e.Content) != 4 || t == nil || t.Value != strconv.Itoa(y.timeout) {
			return false
		}
		delete(want, f.event)
	}
	return len(want) == 0
}

// commentsOnly says whether every line of src is blank or a comment.
func commentsOnly(src string) bool {
	if !utf8.ValidString(src) {
		return false
	}
	for _, l := range strings.Split(src, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

func scalar(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// state reads how the harness's entries stand against what install
// would write.
func (y *yamlHooks) state(src, harness string, version int) (installed, current bool, command string, err error) {
	doc, err := yamlDoc(src)
	if err != nil {
		return false, false, "", err
	}
	found := y.entries(doc, harness)
	if len(found) == 0 {
		return false, false, "", nil
	}
	current, command = hooksStanding(found, y.events, version)
	return true, current, command, nil
}
