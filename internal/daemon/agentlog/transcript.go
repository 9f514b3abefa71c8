package agentlog

// agent-transcript: the conversation of the agent in a pane, read from the
// Claude Code transcript the pane is joined to (detect's join: a hook's
// transcript_path, the agent's session file, or a verified search), for a
// client that shows it in its own view. The path is the tracker's and
// stays here: no reply, error or event names it.
//
// detect/transcript reads the same file for the pane's state and decodes
// no content by design; the person asked for the content, so it is decoded
// here, on demand, and never kept: each call opens the file (through
// transcript.Open: no blocking, regular files only), reads a bounded
// window, answers, and lets go.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

const (
	// transcriptEntriesMax is the most entries one reply holds (the docs).
	transcriptEntriesMax = 1000
	// transcriptWindow is the most of the file one call reads: the newest
	// bytes when more lies after the cursor. Transcripts reach 150 MB.
	transcriptWindow = 4 << 20
	// transcriptTextMax cuts one entry's text (a file read back by a
	// tool can be megabytes); transcriptReplyText bounds a whole reply,
	// so it stays far below the protocol's 16 MiB line.
	transcriptTextMax   = 8 << 10
	transcriptReplyText = 4 << 20
	CodeNoTranscript    = "no_transcript"
	CodeTranscriptPath  = "transcript_refused"
)

type agentTranscriptParams struct {
	Session    string `json:"session" desc:"the session (default: the caller's)" maxlen:"4096"`
	Window     string `json:"window" req:"true" desc:"the window whose agent's conversation to read" maxlen:"4096"`
	HumanNonce string `json:"human_nonce" desc:"the nonce attach gave the person's client (attach with presence for a client without a screen): only the person reads a conversation" maxlen:"256"`
	Limit      int    `json:"limit" desc:"at most this many entries, the newest" min:"1" max:"1000" default:"1000"`
	After      int    `json:"after" desc:"only what the conversation gained after this cursor: the next of an earlier reply" min:"0" max:"9007199254740991"`
}

// TranscriptEntry is one step of the conversation. Every string in it was
// cleaned of escape sequences and likely secrets.
type TranscriptEntry struct {
	Kind      string         `json:"kind"` // prompt, answer, thinking, tool_call, tool_result, edit_diff, plan, todo
	Text      string         `json:"text"`
	Tool      string         `json:"tool,omitempty"`        // tool_call, tool_result, edit_diff: the tool's name
	ToolUseID string         `json:"tool_use_id,omitempty"` // pairs a tool_call with its tool_result
	File      string         `json:"file,omitempty"`        // edit_diff: the file edited
	Error     bool           `json:"error,omitempty"`       // tool_result: the tool failed
	Todos     []TodoEntry    `json:"todos,omitempty"`       // todo: the list as the agent set it
	Time      string         `json:"time,omitempty"`        // the record's timestamp (RFC 3339)
	Cut       bool           `json:"cut,omitempty"`         // text was cut to 8 KiB
	raw       map[string]any // tool_call input, for the summary; never sent
}

type TodoEntry struct {
	Content string `json:"content"`
	Status  string `json:"status"` // pending, in_progress, completed
}

type TranscriptResult struct {
	Type     string            `json:"type"` // agent_transcript
	WindowID string            `json:"window_id"`
	Harness  string            `json:"harness"`
	Entries  []TranscriptEntry `json:"entries"`
	// Truncated: older entries exist that this reply leaves out (the
	// limit, the 1000 cap, the read window or the reply's size).
	Truncated bool `json:"truncated"`
	// Next is the cursor to pass as after for what comes next.
	Next int64 `json:"next"`
	// Reset: after pointed past the end (the file was replaced), so the
	// reply starts over from the newest entries.
	Reset bool `json:"reset,omitempty"`
}

// NewTranscripts makes the transcript feature; Init adds it to a daemon.
func NewTranscripts() *Transcripts {
	return &Transcripts{watches: map[string]transcriptWatched{}}
}

// Name is "transcripts".
func (tw *Transcripts) Name() string { return "transcripts" }

// Init serves agent-transcript for the daemon h and keeps the transcript
// event's watches from then on (Sync).
func (tw *Transcripts) Init(h core.Host) error {
	tw.h = h
	params, run := core.Handle(func(c core.Call, p *agentTranscriptParams) (any, *proto.Error) { return tw.read(c, p) })
	h.AddVerb(core.Verb{Name: "agent-transcript", Class: core.PersonLocal, Returns: "agent_transcript", Params: params, Run: run,
		Desc:    "Read the conversation of the agent in a pane (Claude Code transcripts only): prompts, answers, thinking, tool calls and results, diffs of edits, plans and todo lists, as data cleaned of escape sequences and likely secrets, at most 1000 entries. Only the person: a live human nonce (an attached client, or attach with presence); a pane is refused (not_human). The transcript's path never leaves the daemon",
		Example: `{"verb":"agent-transcript","params":{"session":"work","window":"api","human_nonce":"…","limit":200}}`})
	return nil
}

// Shutdown drops every watch; a Sync after it watches nothing.
func (tw *Transcripts) Shutdown(context.Context) error {
	tw.mu.Lock()
	ws := tw.watches
	tw.watches, tw.closed = map[string]transcriptWatched{}, true
	tw.mu.Unlock()
	for _, x := range ws {
		x.cancel()
	}
	return nil
}

// read is agent-transcript.
func (tw *Transcripts) read(c core.Call, p *agentTranscriptParams) (any, *proto.Error) {
	h := tw.h
	// Never over a link, whatever it may do here (the verb is declared
	// local): a conversation is read by the person at this machine.
	if c.Remote() {
		return nil, proto.Errorf(core.CodeNotHuman, "agent-transcript is not served to another machine").
			WithHint(proto.Hint{Detail: "read it on the machine the agent runs on"})
	}
	if err := h.Person(c, "agent-transcript", p.HumanNonce); err != nil {
		return nil, err
	}
	w, err := h.Window(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	path, harness, ok := w.Pane.Tracked().TranscriptFile()
	if !ok {
		return nil, proto.Errorf(CodeNoTranscript, "window %s has no Claude Code transcript joined", w.DisplayName).
			WithHint(proto.Hint{Param: "window", Detail: "the agent's hook sends it (tuios integration install claude-code), or the daemon finds it once the agent wrote its first turn"})
	}
	tw.Sync() // a client reading now may subscribe for more
	limit := p.Limit
	if limit <= 0 || limit > transcriptEntriesMax {
		limit = transcriptEntriesMax
	}
	res, perr := readConversation(h.Tracker().Home(), path, int64(p.After), limit)
	if perr != nil {
		return nil, perr
	}
	res.Type, res.WindowID, res.Harness = "agent_transcript", w.ID, harness
	return res, nil
}

// transcriptAllowed says whether path is a file the verb may read: a
// regular *.jsonl, no symlink, under home's .claude/projects once every
// link in the way is resolved. The error never names the path.
func transcriptAllowed(home, path string) (os.FileInfo, *proto.Error) {
	refuse := func(why string) *proto.Error {
		return proto.Errorf(CodeTranscriptPath, "the transcript joined to this pane is refused: %s", why).
			WithHint(proto.Hint{Detail: "the daemon reads only a regular *.jsonl file under ~/.claude/projects; fix the transcript_path the agent's hook sends"})
	}
	if home == "" || !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return nil, refuse("not an absolute, clean path")
	}
	if filepath.Ext(path) != ".jsonl" {
		return nil, refuse("not a .jsonl file")
	}
	root, err := filepath.EvalSymlinks(filepath.Join(home, ".claude", "projects"))
	if err != nil {
		return nil, refuse("~/.claude/projects does not exist")
	}
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, refuse("the file does not exist")
	}
	if !lst.Mode().IsRegular() { // a symlink, FIFO, device or directory
		return nil, refuse("not a regular file")
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, refuse("the file does not exist")
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, refuse("outside ~/.claude/projects")
	}
	return lst, nil
}

// readConversation reads the conversation in path after the cursor after
// (0: the newest entries) and keeps the newest limit entries.
func readConversation(home, path string, after int64, limit int) (*TranscriptResult, *proto.Error) {
	lst, perr := transcriptAllowed(home, path)
	if perr != nil {
		return nil, perr
	}
	f, st, err := transcript.Open(path)
	if err != nil {
		var te *transcript.Error
		if errors.As(err, &te) && te.Code() == transcript.CodeNotRegular {
			return nil, proto.Errorf(CodeTranscriptPath, "the transcript joined to this pane is refused: not a regular file")
		}
		return nil, proto.Errorf(CodeNoTranscript, "the transcript joined to this pane cannot be read").
			WithHint(proto.Hint{Detail: "it may have been removed; the daemon drops the join after three missing reads"})
	}
	defer f.Close()
	if !os.SameFile(lst, st) { // replaced between the check and the open
		return nil, proto.Errorf(CodeTranscriptPath, "the transcript joined to this pane changed while it was opened").
			WithHint(proto.Hint{Detail: "try again"})
	}
	res := &TranscriptResult{Entries: []TranscriptEntry{}}
	buf, start, skipped, reset, rerr := readRegion(f, st.Size(), after)
	if rerr != nil {
		return nil, proto.Errorf(CodeNoTranscript, "the transcript joined to this pane cannot be read")
	}
	res.Reset = reset
	entries, consumed := parseConversation(buf)
	res.Next = start + int64(consumed)
	if len(entries) > limit {
		entries = entries[len(entries)-limit:]
		skipped = true
	}
	// The reply's text budget, spent from the newest entry back.
	total, first := 0, 0
	for i := len(entries) - 1; i >= 0; i-- {
		total += len(entries[i].Text) + 64
		for _, t := range entries[i].Todos {
			total += len(t.Content) + 32
		}
		if total > transcriptReplyText {
			first = i + 1
			skipped = true
			break
		}
	}
	res.Entries = append(res.Entries, entries[first:]...)
	res.Truncated = skipped
	return res, nil
}

// readRegion reads what lies after the cursor, at most transcriptWindow
// bytes (the newest), and returns it starting at a line's start. start is
// the file offset of buf[0]; skipped says bytes after the cursor were
// left out; reset says the cursor lay past the end.
func readRegion(f *os.File, size, after int64) (buf []byte, start int64, skipped, reset bool, err error) {
	if after > size {
		after, reset = 0, true
	}
	start = after
	if size-start > transcriptWindow {
		start = size - transcriptWindow
		skipped = true
	}
	// One byte before start says whether start begins a line.
	from := start
	if from > 0 {
		from--
	}
	buf = make([]byte, size-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, false, false, err
	}
	buf = buf[:n] // shorter when the file was cut meanwhile
	if from < start && n > 0 {
		if buf[0] == '\n' {
			buf = buf[1:]
		} else { // mid-line: the line is someone else's
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				return nil, start, skipped, reset, nil
			}
			buf, start = buf[i+1:], from+int64(i)+1
			skipped = true
		}
	}
	return buf, start, skipped, reset, nil
}

// ---- Claude Code's records ----

// ccRecord is the part of a transcript line the conversation needs.
// Claude Code writes one line per record: a prompt or tool results
// (type user), one content block of an answer (type assistant), and
// bookkeeping (summary, file-history-snapshot, system, …) that is
// skipped, as are a subagent's records (isSidechain) and the meta
// records Claude Code adds around local commands (isMeta).
type ccRecord struct {
	Type          string          `json:"type"`
	IsSidechain   bool            `json:"isSidechain"`
	IsMeta        bool            `json:"isMeta"`
	Timestamp     string          `json:"timestamp"`
	Message       *ccMessage      `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type ccMessage struct {
	Content ccContent `json:"content"`
}

// ccContent is a message's content: a string, or a list of blocks.
type ccContent []ccBlock

func (c *ccContent) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = ccContent{{Type: "text", Text: s}}
		return nil
	}
	var blocks []ccBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

type ccBlock struct {
	Type      string          `json:"type"` // text, thinking, redacted_thinking, tool_use, tool_result, image
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   ccContent       `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ccToolResult is the structured result Claude Code keeps beside a tool
// result: for an edit, the patch it applied.
type ccToolResult struct {
	FilePath        string    `json:"filePath"`
	Type            string    `json:"type"` // Write: create or update
	StructuredPatch []ccHunk  `json:"structuredPatch"`
	NewTodos        []ccTodo  `json:"newTodos"`
	Content         ccAnyText `json:"content"`
}

type ccHunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

type ccTodo struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// ccAnyText is a string, or nothing when the field is of another shape
// (a Read's content is an object).
type ccAnyText string

func (t *ccAnyText) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = ccAnyText(s)
	}
	return nil
}

// editTools are the tools whose result carries a patch.
func editTool(name string) bool {
	switch name {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return true
	}
	return false
}

// parseConversation turns the complete lines of buf into entries, in
// order; consumed is the length of those lines (a half-written last line
// is left for the next call). A line that does not decode is skipped.
func parseConversation(buf []byte) (entries []TranscriptEntry, consumed int) {
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		return nil, 0
	}
	tools := map[string]string{} // tool_use id → tool name
	for rest := buf[:end+1]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		line := rest[:i]
		rest = rest[i+1:]
		var r ccRecord
		if len(line) == 0 || json.Unmarshal(line, &r) != nil || r.Message == nil || r.IsSidechain || r.IsMeta {
			continue
		}
		switch r.Type {
		case "user":
			entries = userEntries(entries, &r, tools)
		case "assistant":
			entries = assistantEntries(entries, &r, tools)
		}
	}
	for i := range entries {
		finish(&entries[i])
	}
	inTimeOrder(entries)
	return entries, end + 1
}

// inTimeOrder puts entries in the order their records were made. Claude
// Code may write a prompt's record after the first records of its answer
// (seen with 2.1.197 on a loaded machine), so the file's order is not
// always the conversation's. A stable sort on the records' own times
// keeps the order of records made in the same instant, and of one
// record's entries; an entry with no readable time takes the one before.
func inTimeOrder(entries []TranscriptEntry) {
	type timed struct {
		at time.Time
		e  TranscriptEntry
	}
	list := make([]timed, len(entries))
	var last time.Time
	for i, e := range entries {
		if t, err := time.Parse(time.RFC3339Nano, e.Time); err == nil {
			last = t
		}
		list[i] = timed{last, e}
	}
	slices.SortStableFunc(list, func(a, b timed) int { return a.at.Compare(b.at) })
	for i := range list {
		entries[i] = list[i].e
	}
}

func userEntries(out []TranscriptEntry, r *ccRecord, tools map[string]string) []TranscriptEntry {
	var prompt []string
	for _, b := range r.Message.Content {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				prompt = append(prompt, b.Text)
			}
		case "image":
			prompt = append(prompt, "[image]")
		case "tool_result":
			name := tools[b.ToolUseID]
			out = append(out, TranscriptEntry{Kind: "tool_result", Text: contentText(b.Content), Tool: name, ToolUseID: b.ToolUseID, Error: b.IsError, Time: r.Timestamp})
			if editTool(name) && !b.IsError {
				if d, ok := editDiff(r.ToolUseResult); ok {
					d.Tool, d.ToolUseID, d.Time = name, b.ToolUseID, r.Timestamp
					out = append(out, d)
				}
			}
		}
	}
	if len(prompt) > 0 {
		out = append(out, TranscriptEntry{Kind: "prompt", Text: strings.Join(prompt, "\n"), Time: r.Timestamp})
	}
	return out
}

func assistantEntries(out []TranscriptEntry, r *ccRecord, tools map[string]string) []TranscriptEntry {
	for _, b := range r.Message.Content {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				out = append(out, TranscriptEntry{Kind: "answer", Text: b.Text, Time: r.Timestamp})
			}
		case "thinking":
			if strings.TrimSpace(b.Thinking) != "" { // newer models keep only a signature
				out = append(out, TranscriptEntry{Kind: "thinking", Text: b.Thinking, Time: r.Timestamp})
			}
		case "tool_use":
			if b.ID != "" {
				tools[b.ID] = b.Name
			}
			var in map[string]any
			_ = json.Unmarshal(b.Input, &in)
			switch b.Name {
			case "TodoWrite":
				out = append(out, todoFrom(in, r.Timestamp))
			case "ExitPlanMode":
				plan, _ := in["plan"].(string)
				out = append(out, TranscriptEntry{Kind: "plan", Text: plan, Tool: b.Name, ToolUseID: b.ID, Time: r.Timestamp})
			default:
				out = append(out, TranscriptEntry{Kind: "tool_call", Tool: b.Name, ToolUseID: b.ID, Time: r.Timestamp, raw: in})
			}
		}
	}
	return out
}

// todoFrom is TodoWrite's list.
func todoFrom(in map[string]any, ts string) TranscriptEntry {
	e := TranscriptEntry{Kind: "todo", Tool: "TodoWrite", Time: ts, Todos: []TodoEntry{}}
	list, _ := in["todos"].([]any)
	var lines []string
	for _, x := range list {
		m, _ := x.(map[string]any)
		c, _ := m["content"].(string)
		st, _ := m["status"].(string)
		if len(e.Todos) >= 100 {
			break
		}
		e.Todos = append(e.Todos, TodoEntry{Content: c, Status: st})
		mark := "[ ]"
		switch st {
		case "completed":
			mark = "[x]"
		case "in_progress":
			mark = "[~]"
		}
		lines = append(lines, mark+" "+c)
	}
	e.Text = strings.Join(lines, "\n")
	return e
}

// contentText is a tool result's text; images are named, not carried.
func contentText(c ccContent) string {
	var parts []string
	for _, b := range c {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

// editDiff is the unified diff of an edit's structured patch, or the
// whole content of a file Write created.
func editDiff(raw json.RawMessage) (TranscriptEntry, bool) {
	var tr ccToolResult
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &tr) != nil {
		return TranscriptEntry{}, false
	}
	var b strings.Builder
	for _, h := range tr.StructuredPatch {
		if b.Len() > transcriptTextMax {
			break
		}
		b.WriteString("@@ -")
		b.WriteString(strconv.Itoa(h.OldStart) + "," + strconv.Itoa(h.OldLines) + " +" + strconv.Itoa(h.NewStart) + "," + strconv.Itoa(h.NewLines) + " @@\n")
		for _, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	if b.Len() == 0 && tr.Type == "create" && tr.Content != "" {
		for l := range strings.Lines(string(tr.Content)) {
			if b.Len() > transcriptTextMax {
				break
			}
			b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	if b.Len() == 0 {
		return TranscriptEntry{}, false
	}
	return TranscriptEntry{Kind: "edit_diff", Text: strings.TrimSuffix(b.String(), "\n"), File: tr.FilePath}, true
}

// summaryKeys are the input fields that say what a tool call does, in the
// order they are looked for.
var summaryKeys = [...]string{"command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description", "prompt", "skill"}

// finish builds a tool call's one-line summary and cleans every string.
func finish(e *TranscriptEntry) {
	if e.Kind == "tool_call" {
		e.Text = toolSummary(e.raw)
		e.raw = nil
	}
	e.Text, e.Cut = cleanTranscriptText(e.Text, transcriptTextMax)
	e.Tool, _ = cleanTranscriptText(e.Tool, 128)
	e.ToolUseID, _ = cleanTranscriptText(e.ToolUseID, 128)
	e.File, _ = cleanTranscriptText(e.File, 4096)
	e.Time, _ = cleanTranscriptText(e.Time, 64)
	for i := range e.Todos {
		e.Todos[i].Content, _ = cleanTranscriptText(e.Todos[i].Content, 1024)
		e.Todos[i].Status, _ = cleanTranscriptText(e.Todos[i].Status, 32)
	}
}

func toolSummary(in map[string]any) string {
	for _, k := range summaryKeys {
		if v, ok := in[k].(string); ok && v != "" {
			return v
		}
	}
	if len(in) == 0 {
		return ""
	}
	b, _ := json.Marshal(in) // keys sorted: the same call reads the same
	return string(b)
}

// cleanTranscriptText removes escape sequences and every other control
// character but newline and tab (and bidirectional controls, which
// reorder what a reader sees), masks likely secrets line by line, and
// cuts the text to max bytes on a character boundary.
func cleanTranscriptText(s string, max int) (string, bool) {
	if s == "" {
		return s, false
	}
	s = ansi.Strip(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == utf8.RuneError, r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0,
			r == '\u2028', r == '\u2029', unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = agentstate.MaskSecrets(review.MaskSecrets(l))
	}
	s = strings.Join(lines, "\n")
	if len(s) <= max {
		return s, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…", true
}

// ---- the transcript event ----

// Transcripts publishes a transcript event when a pane's transcript
// grows, for subscribers that asked for the type by name. It watches
// only while one such subscriber exists, through the process's one
// transcript.Watcher (a directory watch, debounced), and follows the
// panes' joins whenever it is synced: on a subscribe, on every
// agent-state change (a join comes with states), on a read. After the
// last such subscriber leaves, the watches go at the next sync; until
// then an event reaches no one.
type Transcripts struct {
	h       core.Host // set in Init
	mu      sync.Mutex
	watches map[string]transcriptWatched // window id → its watch
	closed  bool                         // Shutdown ran: no new watch
}

type transcriptWatched struct {
	path   string
	cancel func()
}

// Sync makes the watches match the panes' joins, or drops them all when
// no subscriber wants the event.
func (tw *Transcripts) Sync() {
	if tw == nil || tw.h == nil {
		return
	}
	h := tw.h
	var panes []core.WindowView
	if h.Listening(core.EvTranscript) {
		for _, ss := range h.View(nil).Sessions {
			panes = append(panes, ss.Windows...)
		}
	}
	want := map[string]string{}
	for _, p := range panes {
		if path, _, ok := p.Pane.Tracked().TranscriptFile(); ok {
			want[p.ID] = path
		}
	}
	var cancels []func()
	var add []core.WindowView
	tw.mu.Lock()
	if tw.closed {
		tw.mu.Unlock()
		return
	}
	for id, x := range tw.watches {
		if want[id] != x.path {
			cancels = append(cancels, x.cancel)
			delete(tw.watches, id)
		}
	}
	for _, p := range panes {
		if path, ok := want[p.ID]; ok {
			if _, has := tw.watches[p.ID]; !has {
				add = append(add, p)
				tw.watches[p.ID] = transcriptWatched{path: path, cancel: func() {}}
			}
		}
	}
	tw.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	wt := h.Options().Watcher
	for _, p := range add {
		path := want[p.ID]
		id, session := p.ID, p.Session
		var cancel func()
		if wt != nil {
			cancel, _ = wt.Watch(path, func() {
				h.Publish(core.Event{Type: core.EvTranscript, Session: session, Window: id})
			})
		}
		if cancel == nil {
			cancel = func() {}
		}
		tw.mu.Lock()
		if cur, ok := tw.watches[id]; ok && cur.path == path {
			cur.cancel = cancel
			tw.watches[id] = cur
			cancel = nil
		}
		tw.mu.Unlock()
		if cancel != nil { // replaced meanwhile
			cancel()
		}
	}
}
