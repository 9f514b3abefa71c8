package integration

import (
	"errors"
	"iter"
	"regexp"
	"strconv"
	"strings"
)

// jsonHooks wires hook entries into a JSON settings file laid out as
// Claude Code's is (Codex's hooks.json, Gemini CLI and Qwen Code follow
// it): {"hooks": {"Event": [{"matcher": "...", "hooks": [{"type":
// "command", "command": "...", "timeout": N}]}]}}; or, flat, as Cursor's
// hooks.json and Crush's crush.json are: {"hooks": {"Event": [{"command":
// "...", "timeout": N}]}}, each element of an event's array one handler.
type jsonHooks struct {
	events  []string // the events to wire, in the order they are added
	matcher bool     // entries carry "matcher": "*" (harnesses that require one)
	timeout int      // how long the harness waits on the hook, in its unit (seconds, or milliseconds for Gemini CLI and Qwen Code)
	// timeouts override timeout for some events: Claude Code's and Qwen
	// Code's PermissionRequest wait up to 310 s while the Inbox holds it.
	timeouts map[string]int
	// flat: an event's array holds handlers, not matcher groups.
	flat bool
	// version: the file starts with "version": 1, which the harness
	// requires (Cursor); install adds it when missing, and a file left
	// holding nothing else after an uninstall counts as empty.
	version bool
}

// ourCommand matches the command of an entry tuios wrote for a harness,
// whatever program path it runs, and captures the integration version:
// a program named tuios*, or any program (tuios integration install
// --command) whose agent-hook call carries --integration N.
func ourCommand(harness string) *regexp.Regexp {
	h := regexp.QuoteMeta(harness)
	return regexp.MustCompile(`(?:(?:^|[\s/'"])(?:tuios|tuios[\w.-]*)['"]?\s+agent-hook\s+` + h + `(?:\s|$)(?:.*--integration[= ])?|\sagent-hook\s+` + h + `\s+--integration[= ])(\d+)?`)
}

// ourHook is one hook tuios wrote, wherever it is written: its event,
// its command as written and the integration version in that command.
type ourHook struct {
	event   string
	command string
	version int
}

func (h ourHook) hook() ourHook { return h }

// readOurHook reads command as a hook of tuios's for the harness re
// matches (ourCommand); false when it is someone else's.
func readOurHook(re *regexp.Regexp, event, command string) (ourHook, bool) {
	sm := re.FindStringSubmatch(command)
	if sm == nil {
		return ourHook{}, false
	}
	v, _ := strconv.Atoi(sm[1])
	return ourHook{event: event, command: command, version: v}, true
}

// hooksStanding says how the hooks tuios wrote for a harness stand
// against what install would write: current when every event has one and
// each is at version; command is the last one's.
func hooksStanding[H interface{ hook() ourHook }](found []H, events []string, version int) (current bool, command string) {
	have := map[string]bool{}
	current = true
	for _, f := range found {
		h := f.hook()
		have[h.event] = true
		if h.version != version {
			current = false
		}
		command = h.command
	}
	for _, e := range events {
		if !have[e] {
			current = false
		}
	}
	return current, command
}

type hookRef struct {
	ourHook
	group   int  // index in the event's array
	handler int  // index in the group's hooks array
	alone   bool // the group holds only tuios's handler
}

// findOurs lists every handler tuios wrote for the harness.
func (j *jsonHooks) findOurs(root *jnode, harness string) []hookRef {
	if j.flat {
		return findOursFlat(root, harness)
	}
	return findOurs(root, harness)
}

// findOursFlat is findOurs for the flat layout: each handler stands
// alone in its event's array.
func findOursFlat(root *jnode, harness string) []hookRef {
	re := ourCommand(harness)
	var out []hookRef
	for event, arr := range eventArrays(root) {
		for i, h := range arr.elems {
			if ours, ok := readOurHandler(re, event, h); ok {
				out = append(out, hookRef{ourHook: ours, group: i, alone: true})
			}
		}
	}
	return out
}

// findOurs lists every handler tuios wrote in the grouped layout.
func findOurs(root *jnode, harness string) []hookRef {
	re := ourCommand(harness)
	var out []hookRef
	for event, arr := range eventArrays(root) {
		for gi, g := range arr.elems {
			hs := g.get("hooks")
			if hs == nil || hs.kind != '[' {
				continue
			}
			for hi, h := range hs.elems {
				if ours, ok := readOurHandler(re, event, h); ok {
					out = append(out, hookRef{ourHook: ours, group: gi, handler: hi, alone: len(hs.elems) == 1})
				}
			}
		}
	}
	return out
}

// eventArrays yields each event's array under "hooks", skipping one a
// later duplicate key hides.
func eventArrays(root *jnode) iter.Seq2[string, *jnode] {
	return func(yield func(string, *jnode) bool) {
		hooks := root.get("hooks")
		if hooks == nil || hooks.kind != '{' {
			return
		}
		for _, m := range hooks.members {
			if m.val.kind != '[' || hooks.get(m.key) != m.val {
				continue
			}
			if !yield(m.key, m.val) {
				return
			}
		}
	}
}

// readOurHandler is readOurHook for a handler object's "command".
func readOurHandler(re *regexp.Regexp, event string, h *jnode) (ourHook, bool) {
	c := h.get("command")
	if c == nil || c.kind != '"' {
		return ourHook{}, false
	}
	return readOurHook(re, event, c.str)
}

// hookGroup and hookHandler are one entry as written, fields in the order
// the harnesses' documentation shows them.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookHandler `json:"hooks"`
}

type hookHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// flatHandler is one entry of the flat layout, as Cursor's and Crush's
// documentation show it.
type flatHandler struct {
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func (j *jsonHooks) entry(event, command string) any {
	t := j.timeout
	if n, ok := j.timeouts[event]; ok {
		t = n
	}
	if j.flat {
		return flatHandler{Command: command, Timeout: t}
	}
	g := hookGroup{Hooks: []hookHandler{{Type: "command", Command: command, Timeout: t}}}
	if j.matcher {
		g.Matcher = "*"
	}
	return g
}

// install returns the settings text with exactly one current entry per
// event and none of tuios's elsewhere.
func (j *jsonHooks) install(src, harness, command string) (string, error) {
	if strings.TrimSpace(src) == "" {
		src = "{}\n"
	}
	for range 4 * (len(j.events) + 8) { // every pass makes one edit
		root, err := parseJSON(src)
		if err != nil {
			return "", err
		}
		if root.kind != '{' {
			return "", errNotObject
		}
		next, done := j.step(src, root, harness, command)
		if done {
			return src, nil
		}
		src = next
	}
	return "", errNotObject
}

var errNotObject = errors.New("the settings are not a JSON object")

// step makes the first edit install still needs, or says it is done.
func (j *jsonHooks) step(src string, root *jnode, harness, command string) (string, bool) {
	if j.version && root.get("version") == nil {
		return appendTo(src, root, "version", 1), false
	}
	hooks := root.get("hooks")
	if hooks == nil {
		return appendTo(src, root, "hooks", map[string]any{}), false
	}
	if hooks.kind != '{' {
		return replaceValue(src, hooks, map[string]any{}), false
	}
	want := map[string]bool{}
	for _, e := range j.events {
		want[e] = true
	}
	seen := map[string]bool{}
	for _, r := range j.findOurs(root, harness) {
		if !want[r.event] || seen[r.event] || r.command != command {
			return removeRef(src, root, r), false
		}
		seen[r.event] = true
	}
	for _, e := range j.events {
		if seen[e] {
			continue
		}
		arr := hooks.get(e)
		if arr == nil {
			return appendTo(src, hooks, e, []any{j.entry(e, command)}), false
		}
		if arr.kind != '[' {
			return replaceValue(src, arr, []any{j.entry(e, command)}), false
		}
		return appendTo(src, arr, "", j.entry(e, command)), false
	}
	return src, true
}

// removeRef removes one handler: its whole group when it stands alone,
// the event when the group was the last, and "hooks" when it empties.
func removeRef(src string, root *jnode, r hookRef) string {
	hooks := root.get("hooks")
	arr := hooks.get(r.event)
	if !r.alone {
		return removeAt(src, arr.elems[r.group].get("hooks"), r.handler)
	}
	if len(arr.elems) > 1 || commentedAround(src, arr) {
		return removeAt(src, arr, r.group)
	}
	if len(hooks.members) > 1 || commentedAround(src, hooks) {
		return removeAt(src, hooks, memberIndex(hooks, r.event))
	}
	return removeAt(src, root, memberIndex(root, "hooks"))
}

func memberIndex(n *jnode, key string) int {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return i
		}
	}
	return -1
}

// uninstall removes every handler tuios wrote for the harness.
func (j *jsonHooks) uninstall(src, harness string) (string, error) {
	for {
		root, err := parseJSON(src)
		if err != nil {
			return "", err
		}
		refs := j.findOurs(root, harness)
		if len(refs) == 0 {
			return src, nil
		}
		src = removeRef(src, root, refs[0])
	}
}

// state reads how the harness's entries stand against what install
// would write.
func (j *jsonHooks) state(src, harness string, version int) (installed bool, current bool, command string, err error) {
	if strings.TrimSpace(src) == "" {
		return false, false, "", nil
	}
	root, err := parseJSON(src)
	if err != nil {
		return false, false, "", err
	}
	refs := j.findOurs(root, harness)
	if len(refs) == 0 {
		return false, false, "", nil
	}
	current, command = hooksStanding(refs, j.events, version)
	return true, current, command, nil
}

// leftEmpty reports whether text, after an uninstall, holds nothing a
// person wrote: an empty object, or for a harness that requires it only
// "version": 1.
func (j *jsonHooks) leftEmpty(text string) bool {
	if emptyObject(text) {
		return true
	}
	if !j.version {
		return false
	}
	root, err := parseJSON(text)
	if err != nil || root.kind != '{' || len(root.members) != 1 || root.members[0].key != "version" {
		return false
	}
	return strings.TrimSpace(text[root.members[0].val.start:root.members[0].val.end]) == "1"
}
