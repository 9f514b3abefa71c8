package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// transcriptPane starts a session with one shell pane, puts the fixture
// transcript (a Claude Code-shaped file: testdata/claude_transcript.jsonl)
// under the scratch home's ~/.claude/projects and joins the pane to it the
// way Claude Code's hook does (set-agent-state with transcript_path). It
// returns the person's connection (attach with presence), the nonce and
// the transcript's path.
func transcriptPane(t *testing.T, set func(*Options)) (srv *Server, sock string, r *rpc, nonce, path string) {
	t.Helper()
	srv, sock = serverWith(t, set)
	path = filepath.Join(srv.tracker.Home(), ".claude", "projects", "-home-u-proj", "5b1f4f2e-8c3a-4d1e-9b7a-2f6c0e1d3a45.jsonl")
	b, err := os.ReadFile("testdata/claude_transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r = dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "n"})
	join(t, r, path)
	res := r.must("attach", map[string]any{"client": "phone", "presence": true})
	if res["presence"] != true {
		t.Fatalf("attach presence: %v", res)
	}
	return srv, sock, r, str(res["human_nonce"]), path
}

// join joins window 0 of session n to path, as a hook does.
func join(t *testing.T, r *rpc, path string) {
	t.Helper()
	res := r.must("set-agent-state", map[string]any{"session": "n", "window": "0", "state": "working", "harness": "claude-code", "transcript_path": path})
	if res["applied"] != true {
		t.Fatalf("set-agent-state: %v", res)
	}
}

// readT calls agent-transcript and returns the raw answer line's result
// decoded, and the raw bytes (to look for what must not be there).
func readT(t *testing.T, r *rpc, params map[string]any) (agentTranscriptResult, []byte, *proto.Error) {
	t.Helper()
	res, perr := r.call("agent-transcript", params)
	if perr != nil {
		return agentTranscriptResult{}, nil, perr
	}
	raw, _ := json.Marshal(res)
	var out agentTranscriptResult
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer: %v", err)
	}
	return out, raw, nil
}

func kinds(es []transcriptEntry) string {
	var k []string
	for _, e := range es {
		k = append(k, e.Kind)
	}
	return strings.Join(k, ",")
}

// The person reads the conversation: every kind of entry in order, with
// escape sequences and a token removed, a subagent's records and the
// bookkeeping left out, and nothing of the file's path in the answer.
func TestAgentTranscriptReadsTheConversation(t *testing.T) {
	t.Parallel()
	_, _, r, nonce, path := transcriptPane(t, nil)
	got, raw, perr := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce})
	if perr != nil {
		t.Fatalf("agent-transcript: %v %s", perr.Code, perr.Message)
	}
	want := "prompt,thinking,answer,tool_call,tool_result,todo,tool_result,tool_call,tool_result,edit_diff,tool_call,tool_result,plan,answer"
	if k := kinds(got.Entries); k != want {
		t.Fatalf("kinds:\n got %s\nwant %s", k, want)
	}
	if got.Type != "agent_transcript" || got.Harness != "claude-code" || got.WindowID == "" || got.Truncated {
		t.Fatalf("header: %+v", got)
	}
	e := got.Entries
	if p := e[0].Text; strings.ContainsRune(p, 0x1b) || !strings.Contains(p, "Fix the parser: red and use") || strings.Contains(p, "ghp_") {
		t.Fatalf("prompt not cleaned: %q", p)
	}
	if e[3].Tool != "Read" || e[3].Text != "/home/u/proj/parse.go" || e[4].Tool != "Read" || e[4].ToolUseID != e[3].ToolUseID {
		t.Fatalf("tool call and result: %+v %+v", e[3], e[4])
	}
	if td := e[5]; len(td.Todos) != 2 || td.Todos[0].Status != "in_progress" || td.Text != "[~] Fix Fields\n[ ] Run go test" {
		t.Fatalf("todo: %+v", td)
	}
	if d := e[9]; d.File != "/home/u/proj/parse.go" || d.Tool != "Edit" || !strings.Contains(d.Text, "@@ -7,3 +7,3 @@\n") || !strings.Contains(d.Text, "-\treturn out[:len(out)-1]\n+\treturn out") {
		t.Fatalf("edit diff: %+v", d)
	}
	if res := e[11]; !res.Error || res.Tool != "Bash" || e[10].Text != "go test ./parse" {
		t.Fatalf("failed bash: %+v %+v", e[10], res)
	}
	if e[12].Text != "1. Fix Fields\n2. Run the tests" || e[13].Text != "Fixed: Fields keeps the last field now." || e[13].Time != "2026-11-30T10:00:15.000Z" {
		t.Fatalf("plan and answer: %+v %+v", e[12], e[13])
	}
	for _, leak := range []string{path, filepath.Dir(path), "SIDECHAIN", "Caveat", "ghp_abcdef"} {
		if bytes.Contains(raw, []byte(leak)) {
			t.Fatalf("the answer holds %q: %s", leak, raw)
		}
	}
	st, _ := os.Stat(path)
	if got.Next != st.Size() {
		t.Fatalf("next %d, file %d", got.Next, st.Size())
	}

	// The cursor: nothing new, then only what was appended; a half-written
	// line waits.
	again, _, _ := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "after": got.Next})
	if len(again.Entries) != 0 || again.Next != got.Next || again.Truncated {
		t.Fatalf("after the end: %+v", again)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, `{"type":"user","isSidechain":false,"timestamp":"2026-11-30T10:01:00Z","message":{"role":"user","content":"and the docs, password: hunter2"}}`+"\n"+`{"type":"assistant","message":{"content":[{"type":"text","text":"half`)
	f.Close()
	more, _, _ := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "after": got.Next})
	if kinds(more.Entries) != "prompt" || more.Entries[0].Text != "and the docs, password: ****" {
		t.Fatalf("appended: %+v", more.Entries)
	}
	// A cursor past the end (the file was replaced) starts over.
	over, _, _ := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "after": 1 << 40})
	if !over.Reset || len(over.Entries) != 15 {
		t.Fatalf("cursor past the end: reset %v, %d entries", over.Reset, len(over.Entries))
	}
	// limit keeps the newest.
	two, _, _ := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "limit": 2})
	if kinds(two.Entries) != "answer,prompt" || !two.Truncated {
		t.Fatalf("limit 2: %s truncated=%v", kinds(two.Entries), two.Truncated)
	}
}

// Only the person reads it: no nonce, a wrong one, or a dead one is
// not_human; a pane with no transcript says so.
func TestAgentTranscriptNeedsTheHumanNonce(t *testing.T) {
	t.Parallel()
	_, sock, r, nonce, _ := transcriptPane(t, nil)
	for _, n := range []string{"", "0" + nonce[1:] + "x"} {
		wantCode(t, r, codeNotHuman, "agent-transcript", map[string]any{"session": "n", "window": "0", "human_nonce": n})
	}
	// The holder's connection closes: its nonce dies with it.
	other := dialRPC(t, sock)
	if _, _, perr := readT(t, other, map[string]any{"session": "n", "window": "0", "human_nonce": nonce}); perr != nil {
		t.Fatalf("the holder's second connection: %v", perr)
	}
	r.c.Close()
	eventually(t, "the nonce dies with its connection", func() bool {
		_, perr := other.call("agent-transcript", map[string]any{"session": "n", "window": "0", "human_nonce": nonce})
		return perr != nil && perr.Code == codeNotHuman
	})
	// A plain attach (a client with a screen) is the person too.
	n2 := str(other.must("attach", map[string]any{"client": "tui"})["human_nonce"])
	other.must("new-window", map[string]any{"session": "n", "name": "plain", "no_focus": true})
	wantCode(t, other, codeNoTranscript, "agent-transcript", map[string]any{"session": "n", "window": "plain", "human_nonce": n2})
	// presence shows nothing, so it takes no screen params.
	wantCode(t, other, proto.CodeInvalidParams, "attach", map[string]any{"presence": true, "stream": true})
	wantCode(t, other, proto.CodeInvalidParams, "agent-transcript", map[string]any{"session": "n", "window": "0", "human_nonce": n2, "limit": 1001})
}

// TestTranscriptHelper is not a test: run inside a pane (TUIOS_TS_HELPER
// set) it reads the transcript with a nonce copied from the person and
// prints the code it got.
func TestTranscriptHelper(t *testing.T) {
	t.Parallel()
	if os.Getenv("TUIOS_TS_HELPER") == "" {
		t.Skip("a helper process, not a test")
	}
	r := dialRPC(t, os.Getenv("TUIOS_TS_SOCK"))
	_, perr := r.call("agent-transcript", map[string]any{"session": "n", "window": "0", "human_nonce": os.Getenv("TUIOS_TS_NONCE")})
	if perr == nil {
		os.Stdout.WriteString("ts_result=ok\n")
	} else {
		os.Stdout.WriteString("ts_result=" + perr.Code + "\n")
	}
}

// A process in a pane cannot read it: not with the person's nonce copied
// into it, and not when the daemon lets a shell outside every pane act as
// the person (respond_from_shell).
func TestAgentTranscriptRefusedInAPane(t *testing.T) {
	t.Parallel()
	_, sock, r, nonce, _ := transcriptPane(t, func(o *Options) { o.Config.Daemon.RespondFromShell = true })
	exe, _ := os.Executable()
	r.must("new-window", map[string]any{"session": "n", "name": "in", "no_focus": true,
		"argv": []string{"sh", "-c", `TUIOS_TS_HELPER=1 TUIOS_TS_SOCK="$1" TUIOS_TS_NONCE="$3" "$2" -test.run='^TestTranscriptHelper$'; sleep 60`, "sh", sock, exe, nonce}})
	r.must("wait-for", map[string]any{"session": "n", "window": "in", "condition": "window-output", "pattern": "ts_result=", "timeout": 30000})
	got := str(r.must("capture-pane", map[string]any{"session": "n", "window": "in"})["content"])
	if !strings.Contains(got, "ts_result="+codeNotHuman) {
		t.Fatalf("a pane read the transcript:\n%s", got)
	}
	// From a shell outside every pane, respond_from_shell lets the person
	// read without a nonce.
	if _, _, perr := readT(t, dialRPC(t, sock), map[string]any{"session": "n", "window": "0"}); perr != nil {
		t.Fatalf("respond_from_shell, outside every pane: %v", perr)
	}
}

// Only a regular *.jsonl under ~/.claude/projects: a file elsewhere, a
// symlink to it, another extension and a FIFO are refused, and the error
// names none of them.
func TestAgentTranscriptRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	srv, _, r, nonce, good := transcriptPane(t, nil)
	home := srv.tracker.Home()
	b, _ := os.ReadFile(good)
	outside := filepath.Join(home, "elsewhere", "s.jsonl")
	os.MkdirAll(filepath.Dir(outside), 0o700)
	os.WriteFile(outside, b, 0o600)
	link := filepath.Join(filepath.Dir(good), "link.jsonl")
	os.Symlink(outside, link)
	dirLink := filepath.Join(home, ".claude", "projects", "-dirlink")
	os.Symlink(filepath.Dir(outside), dirLink)
	txt := filepath.Join(filepath.Dir(good), "notes.txt")
	os.WriteFile(txt, b, 0o600)
	for _, p := range []string{outside, link, filepath.Join(dirLink, "s.jsonl"), txt} {
		join(t, r, p)
		perr := wantCode(t, r, codeTranscriptPath, "agent-transcript", map[string]any{"session": "n", "window": "0", "human_nonce": nonce})
		if strings.Contains(perr.Message+perr.Hint.Detail, home) {
			t.Fatalf("the error names a path: %s / %s", perr.Message, perr.Hint.Detail)
		}
	}
	join(t, r, good)
	if _, _, perr := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce}); perr != nil {
		t.Fatalf("back on the good file: %v", perr)
	}
}

// A reply holds at most 1000 entries, the newest, and says the rest was
// left out.
func TestAgentTranscriptCapsAt1000(t *testing.T) {
	t.Parallel()
	_, _, r, nonce, path := transcriptPane(t, nil)
	var b strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&b, `{"type":"user","isSidechain":false,"message":{"role":"user","content":"prompt %d"}}`+"\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	got, _, perr := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce})
	if perr != nil {
		t.Fatal(perr)
	}
	if len(got.Entries) != 1000 || !got.Truncated || got.Entries[0].Text != "prompt 500" || got.Entries[999].Text != "prompt 1499" {
		t.Fatalf("%d entries, truncated %v, first %q", len(got.Entries), got.Truncated, got.Entries[0].Text)
	}
}

// The transcript event: a subscriber that names it hears that the
// conversation grew; one that names no types does not get it.
func TestTranscriptEventIsOptIn(t *testing.T) {
	t.Parallel()
	_, sock, r, _, path := transcriptPane(t, nil)
	all := dialRPC(t, sock)
	all.must("subscribe", map[string]any{"session": "n"})
	ts := dialRPC(t, sock)
	ts.must("subscribe", map[string]any{"types": []string{"transcript", "window-created"}})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, `{"type":"user","message":{"role":"user","content":"more"}}`+"\n")
	f.Close()
	ev := ts.nextLine()
	if ev["type"] != "transcript" || ev["session"] != "n" || ev["window"] == "" {
		t.Fatalf("event: %v", ev)
	}
	// A marker the default subscriber gets: nothing of type transcript
	// came before it.
	r.must("new-window", map[string]any{"session": "n", "name": "marker", "no_focus": true})
	for {
		e := all.nextLine()
		if e["type"] == "transcript" {
			t.Fatalf("a default subscriber got %v", e)
		}
		if e["type"] == "window-created" {
			break
		}
	}
}

// Fuzz: any bytes parse without panicking into entries that hold no
// control character but newline and tab, and consumed ends on a line.
func FuzzParseConversation(f *testing.F) {
	b, _ := os.ReadFile("testdata/claude_transcript.jsonl")
	f.Add(b)
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"\u001b]0;x\u0007hi"}]}]}}` + "\n"))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[{"content":1}]}}]}}` + "\n{\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		es, n := parseConversation(in)
		if n < 0 || n > len(in) || n > 0 && in[n-1] != '\n' {
			t.Fatalf("consumed %d of %d", n, len(in))
		}
		for _, e := range es {
			for _, s := range []string{e.Text, e.Tool, e.File, e.Time, e.ToolUseID} {
				for _, c := range s {
					if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0x1b {
						t.Fatalf("control %U in %q", c, s)
					}
				}
			}
			if len(e.Text) > transcriptTextMax+len("…") {
				t.Fatalf("text of %d bytes", len(e.Text))
			}
		}
	})
}

// A transcript larger than the read window: the reply comes from its
// newest 4 MiB, starts on a whole line and says older ones were left out.
func TestAgentTranscriptReadsTheNewestWindow(t *testing.T) {
	t.Parallel()
	_, _, r, nonce, path := transcriptPane(t, nil)
	pad := strings.Repeat("x", 1000)
	var b strings.Builder
	for i := range 6000 { // about 6 MiB
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":"p%05d %s"}}`+"\n", i, pad)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	got, _, perr := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "limit": 1000})
	if perr != nil {
		t.Fatal(perr)
	}
	if len(got.Entries) != 1000 || !got.Truncated || got.Entries[999].Text != "p05999 "+pad || got.Next != int64(b.Len()) {
		t.Fatalf("%d entries, truncated %v, next %d of %d", len(got.Entries), got.Truncated, got.Next, b.Len())
	}
	for _, e := range got.Entries {
		if len(e.Text) != len("p00000 ")+len(pad) || e.Text[0] != 'p' {
			t.Fatalf("a broken line: %.40q", e.Text)
		}
	}
	// A cursor in the middle of a line reads from the next whole one.
	mid, _, _ := readT(t, r, map[string]any{"session": "n", "window": "0", "human_nonce": nonce, "after": b.Len() - 1500})
	if len(mid.Entries) != 1 || mid.Entries[0].Text[:6] != "p05999" || !mid.Truncated {
		t.Fatalf("from mid-line: %d entries, truncated %v", len(mid.Entries), mid.Truncated)
	}
}
