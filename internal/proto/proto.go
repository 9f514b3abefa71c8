// Package proto is the tuios control protocol: JSON lines over a unix
// socket. A request is one line {"id","verb","params"}; its answer is one
// line {"id","result":{"type",…}} or {"id","error":{"code","message","hint"}}.
// Requests on one connection are answered in order.
//
// It owns the envelope, line framing with its 16 MB cap, strict params
// decoding (an unknown param is refused, never ignored), the stable error
// codes (a param error says which param and what is wrong with it in its
// hint: ParamError), verb schemas for list-verbs, and the verbs' results
// as types, which the daemon returns and the CLI, the attach client and
// the MCP server decode, so a field of the wire is named once:
//
//	meta.go      hello, subscribe, unsubscribe, kill-server
//	session.go   sessions and workspaces
//	window.go    windows, focus, move, run-command, split, layout
//	pane.go      capture-pane, send-text, send-keys
//	wait.go      wait-for
//	agent.go     agent state, list-agents, the report verbs, explain-*
//	option.go    list-options, get-option, set-option, list-themes
//	grants.go    pane-grants, set-pane-grants, restrict-connection
//	worktree.go  worktrees, fans, start-agent
//	transfer.go, recap.go, peek.go, review.go, attach*.go: the copies,
//	the recap, peek-prompt, review-diff and the attach stream
//
// It does not know any verb's meaning: the daemon registers the verbs
// and fills the results.
package proto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
)

// Version is the protocol integer; new verbs and fields are additive and do
// not bump it.
const (
	Version    = 1
	MinVersion = 1
	// MaxLine caps one request line.
	MaxLine = 16 << 20
)

// Request is one call.
type Request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Verb   string          `json:"verb"`
	Params json.RawMessage `json:"params,omitempty"`
	// PaneToken is the caller's TUIOS_PANE_TOKEN, sent by a client that
	// runs in a pane: it places the caller in that pane where the kernel
	// cannot, and never makes a caller the person.
	PaneToken string `json:"pane_token,omitempty"`
	// Quiet asks for no answer when the call succeeds: only a failure is
	// answered, with this request's id, in its place in the order. A
	// client that streams calls it does not wait on (the attach client's
	// typing) saves a line and a wakeup per key. A daemon that predates
	// the field refuses it, so a client sends it only to a daemon whose
	// attach answer says quiet_requests.
	Quiet bool `json:"quiet,omitempty"`
}

// Response is one answer: exactly one of Result and Error is set.
type Response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is a failure with a stable code, a one-line message, and a hint.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    *Hint  `json:"hint,omitempty"`
}

// Hint says what to do next. Every field is optional.
type Hint struct {
	Verb       string   `json:"verb,omitempty"`
	Command    string   `json:"command,omitempty"`
	Param      string   `json:"param,omitempty"`
	Accepted   []string `json:"accepted,omitempty"`
	DidYouMean string   `json:"did_you_mean,omitempty"`
	Available  []string `json:"available,omitempty"`
	Detail     string   `json:"detail,omitempty"`
	// Problem is what is wrong with Param, in words that follow its
	// name ("is required", "is 0, out of range (1 to 9)"): a client
	// that calls the param something else (a flag, an argument) says
	// its own name and this, without reading Message.
	Problem string `json:"problem,omitempty"`
	// Range is the range of a number param that was out of it, in the
	// protocol's units ("1 to 9").
	Range string `json:"range,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an error with a code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ParamError is an invalid_params error about one param: its message
// is `the param "NAME" PROBLEM`, and its hint carries Param and Problem
// for a client that words it its own way. Add to e.Hint for more.
func ParamError(name, problem string) *Error {
	return Errorf(CodeInvalidParams, "the param %q %s", name, problem).WithHint(Hint{Param: name, Problem: problem})
}

// WithHint attaches a hint and returns e.
func (e *Error) WithHint(h Hint) *Error { e.Hint = &h; return e }

// Error codes (stable, additive).
const (
	CodeInvalidRequest   = "invalid_request"
	CodeUnknownVerb      = "unknown_verb"
	CodeInvalidParams    = "invalid_params"
	CodeSessionNotFound  = "session_not_found"
	CodeSessionExists    = "session_exists"
	CodeWindowNotFound   = "window_not_found"
	CodeAmbiguousWindow  = "ambiguous_window"
	CodeNoWindows        = "no_windows"
	CodeCommandFailed    = "command_failed"
	CodeTimeout          = "timeout"
	CodeProtocolMismatch = "protocol_mismatch"
	CodeForbidden        = "forbidden"
	CodeRateLimited      = "rate_limited"
	CodeInternal         = "internal"
	// CodeNeedsClient: the verb measures the screen (a direction, a split,
	// a layout), which only an attached client has.
	CodeNeedsClient = "needs_client"
	CodeTilingOff   = "tiling_off"
)

// CodeDescriptions documents every code list-verbs returns.
var codeDescriptions = [...][2]string{
	{CodeInvalidRequest, "the line is not a request (bad JSON, no verb, too long, or a second subscribe)"},
	{CodeUnknownVerb, "no such verb; hint.did_you_mean names the nearest"},
	{CodeInvalidParams, "a param is unknown, missing, of the wrong type or out of range"},
	{CodeSessionNotFound, "no session has that name"},
	{CodeSessionExists, "a session with that name already exists"},
	{CodeWindowNotFound, "no window matches, or it closed while waited on"},
	{CodeAmbiguousWindow, "the window address (a name or an id prefix) matches several windows; hint.available lists them"},
	{CodeNoWindows, "the session has no windows"},
	{CodeCommandFailed, "the command could not run"},
	{CodeTimeout, "the wait ended without a match"},
	{CodeProtocolMismatch, "the client's protocol is outside what this daemon speaks"},
	{CodeForbidden, "the caller may not do this"},
	{CodeRateLimited, "too many requests of this kind"},
	{CodeNeedsClient, "the verb needs a client attached to the session (a direction, a split or a layout is the client's geometry)"},
	{CodeTilingOff, "the session floats its windows and the verb needs tiling on (tuios set-layout --tiling true)"},
	{"no_space", "split-window: the tile is too small to split that way (each part needs 4 columns, or a title row and a pane row), or the splits are nested as deep as they go"},
	{"no_keyboard", "the target is the person's inbox (human), which has no keyboard"},
	{"agent_blocked", "the target agent waits on a prompt (needs_input); nothing was typed"},
	{"not_ready", "the target agent stayed mid-turn until the wait ended"},
	{"prompt_stalled", "the text was typed but the agent showed no sign of taking it"},
	{"loop_refused", "a pane addressed itself, or an ask would close a cycle"},
	{"not_human", "the act is reserved to the person: a live human nonce from an attached client (or respond_from_shell from outside every pane)"},
	{"prompt_changed", "the prompt is not the one peeked, or was already answered; nothing was pressed"},
	{"risk_unacknowledged", "allowing a risky prompt needs risk_ack naming its risk rules; hint.accepted lists them"},
	{"stash_full", "the session stash is full and every file in it is still named by a message"},
	{"unknown_host", "no linked host has that name"},
	{"host_unreachable", "the host's link is not up (tuios hosts says why)"},
	{"incompatible", "the far daemon speaks another control protocol version"},
	{"queue_full", "the pane already holds the most queued messages it may ([agents.queue] max)"},
	{"not_repo", "the pane's working directory is in no git repository (or its process runs on another machine)"},
	{"no_notes", "there are no unsent review notes to send"},
	{"git_failed", "a git call failed or the git calls of one diff took over 10 s"},
	{"repo_not_found", "the folder named as the repository does not exist"},
	{"not_worktree", "the session or folder is not a worktree tuios made (or not the one named)"},
	{"worktree_dirty", "the checkout has changes that would be lost: commit, stash (--stash) or force (--force)"},
	{"no_transcript", "the pane's agent has no conversation tuios can read (agent-transcript reads Claude Code transcripts)"},
	{"transcript_refused", "the pane's transcript is not a regular *.jsonl file under ~/.claude/projects, so it is not read"},
	{"outside_folder", "tuios cp from a pane without admin: an end is outside the pane's folder (its worktree, else the folder it started in); nothing was copied (the CLI exits 4)"},
	{"not_supported", "the daemon does not do this in this version (tuios cp with an end on a linked host)"},
	{"transfer_not_found", "no transfer has that id among the ones the caller sees (a pane without admin sees only the copies it started)"},
	{"transfers_full", "the daemon keeps 256 copies and none of them has finished"},
	{CodeInternal, "a bug in the daemon"},
}

// ErrorCodes lists the codes with their descriptions.
func ErrorCodes() [][2]string { return codeDescriptions[:] }

// ErrLineTooLong is returned by ReadLine for a line over MaxLine; the rest
// of the line has been consumed, so the connection can go on.
var ErrLineTooLong = errors.New("proto: request line over 16 MB")

// ErrBudget is returned by ReadLineWithin when the lines being read on
// every connection together would pass the Budget; the rest of the line has
// been consumed, so the connection can go on.
var ErrBudget = errors.New("proto: too much unfinished input held across connections")

// Budget bounds the bytes of request lines held at once across every
// connection of a server: each line takes from it as it grows and gives
// back once it has been handled. Without it, many connections each holding
// an unfinished line just under MaxLine add up to gigabytes.
type Budget struct {
	max  int64
	used atomic.Int64
}

// NewBudget returns a budget of max bytes.
func NewBudget(max int64) *Budget { return &Budget{max: max} }

func (b *Budget) take(n int) bool {
	if b == nil {
		return true
	}
	if b.used.Add(int64(n)) > b.max {
		b.used.Add(-int64(n))
		return false
	}
	return true
}

// Release gives back n bytes taken for a line.
func (b *Budget) Release(n int) {
	if b != nil && n > 0 {
		b.used.Add(-int64(n))
	}
}

// Used is how many bytes lines hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

// ReadLine reads one line (without its newline) of at most max bytes. An
// over-long line is consumed up to its newline and reported as
// ErrLineTooLong, so one bad request does not end the connection.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	return ReadLineWithin(r, max, nil)
}

// ReadLineWithin is ReadLine drawing the line's bytes from b (nil: no
// budget). A line it returns holds len(line) bytes of b until the caller
// calls b.Release(len(line)); on any error nothing is held.
func ReadLineWithin(r *bufio.Reader, max int, b *Budget) ([]byte, error) {
	var line []byte
	var refused error
	for {
		chunk, err := r.ReadSlice('\n')
		if refused == nil {
			switch {
			case len(line)+len(chunk) > max+1:
				refused = ErrLineTooLong
			case !b.take(len(chunk)):
				refused = ErrBudget
			default:
				line = append(line, chunk...)
			}
			if refused != nil {
				b.Release(len(line))
				line = nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 && refused == nil {
				return trimLine(line, b), nil
			}
			b.Release(len(line))
			return nil, err
		}
		if refused != nil {
			return nil, refused
		}
		return trimLine(line, b), nil
	}
}

// trimLine drops the line ending and gives its bytes back.
func trimLine(line []byte, b *Budget) []byte {
	t := bytes.TrimRight(line, "\r\n")
	b.Release(len(line) - len(t))
	return t
}

// ParseRequest decodes one request line.
func ParseRequest(line []byte) (Request, *Error) {
	var req Request
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return req, Errorf(CodeInvalidRequest, "a request is one JSON object per line")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, Errorf(CodeInvalidRequest, "the request is not valid JSON: %s", cleanJSONError(err))
	}
	if dec.More() {
		return req, Errorf(CodeInvalidRequest, "one request per line")
	}
	if req.Verb == "" {
		return req, Errorf(CodeInvalidRequest, "the request names no verb").WithHint(Hint{Detail: `{"id":1,"verb":"list-verbs"}`})
	}
	return req, nil
}

// DecodeParams decodes params strictly into v: an unknown param is an
// invalid_params error naming it.
func DecodeParams(raw json.RawMessage, v any) *Error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := cleanJSONError(err)
		e := Errorf(CodeInvalidParams, "bad params: %s", msg)
		if i := strings.Index(msg, `unknown field "`); i >= 0 {
			name := strings.TrimSuffix(msg[i+len(`unknown field "`):], `"`)
			e = Errorf(CodeInvalidParams, "unknown param %q", name)
			e.Hint = &Hint{Param: name}
		}
		return e
	}
	return nil
}

// cleanJSONError keeps the decoder's message short: it never echoes the
// input.
func cleanJSONError(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return msg
}

// Encode writes one response line.
func Encode(w io.Writer, resp Response) error {
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(Response{ID: resp.ID, Error: Errorf(CodeInternal, "the result could not be encoded")})
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
