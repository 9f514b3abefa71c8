package daemon

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

var updateFeatureWire = flag.Bool("update-feature-wire", false, "rewrite testdata/wire_features.golden from this run")

// The results the feature packages (mailbox, attention, links, waitfor)
// send keep their exact bytes while their Go types move into
// internal/proto: each result below is pinned in
// testdata/wire_features.golden as the daemon wrote it on the wire, key
// order included, with only what differs run to run (pane ids, temporary
// paths, clocks, commit hashes) replaced by a name. Regenerate only for a
// change of the wire that is meant:
// go test -run TestFeatureWireBytes -update-feature-wire.
func TestFeatureWireBytes(t *testing.T) {
	t.Parallel()
	g := &wireGolden{t: t, vary: map[string]bool{
		"sent_at": true, "stored_at": true, "waited_for": true, "settled_ms": true, "at": true,
		"base_sha": true, "tree_sha": true, "expires": true, "since": true, "edited_at": true,
	}}

	// Mail: a held message from a link, a plain one, a wait, a read, a
	// release, the stash and ask-agent, in one session with two panes.
	{
		_, sock := serverWith(t, func(o *Options) {
			o.Config = policyFile(map[string]config.Host{"build": {HoldMail: yes()}})
		})
		g.subst("$SOCKDIR", filepath.Dir(filepath.Dir(sock)))
		local := dialRPC(t, sock)
		p := personRPC(t, sock)
		g.subst("$API", catPane(t, local, "api"))
		worker := str(local.must("new-window", map[string]any{"session": "api", "name": "worker", "argv": []string{"/bin/cat"}})["window_id"])
		g.subst("$WORKER", worker)
		l := linkRPC(t, sock, "build", false)

		sent := g.pin("send-agent-message", &proto.MessageSent{}, local, "send-agent-message", map[string]any{"session": "api", "to": "worker", "from": "lead", "subject": "retest", "text": "first"})
		g.pin("send-agent-message/reply", &proto.MessageSent{}, local, "send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "second", "reply_to": sent["message_id"]})
		g.pin("send-agent-message/notice", &proto.MessageSent{}, local, "send-agent-message", map[string]any{"session": "api", "text": "to everyone"})
		held := g.pin("send-agent-message/held", &proto.MessageSent{}, l, "send-agent-message", map[string]any{"session": "api", "to": "worker", "from": "lead", "subject": "held", "text": "rebased"})
		g.pin("wait-for/agent-message", &proto.MessageWaitResult{}, local, "wait-for", map[string]any{"session": "api", "window": "worker", "condition": "agent-message", "timeout": 30000})
		g.pin("read-agent-messages/peek", &proto.MessagesRead{}, local, "read-agent-messages", map[string]any{"session": "api", "to": "worker", "peek": true, "notices": true})
		g.pin("read-agent-messages/session", &proto.MessagesRead{}, local, "read-agent-messages", map[string]any{"session": "api", "limit": 2})
		g.pin("release-agent-message", &proto.MessageReleased{}, p, "release-agent-message", map[string]any{"session": "api", "id": held["message_id"], "human_nonce": p.nonce})

		file := filepath.Join(t.TempDir(), "notes.txt")
		g.subst("$FILEDIR", filepath.Dir(file))
		if err := os.WriteFile(file, []byte("the notes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		put := g.pin("stash-put", &proto.StashStored{}, local, "stash-put", map[string]any{"session": "api", "path": file})
		g.pin("stash-put/again", &proto.StashStored{}, local, "stash-put", map[string]any{"session": "api", "path": file})
		g.pin("stash-list", &proto.StashList{}, local, "stash-list", map[string]any{"session": "api"})
		g.pin("stash-get", &proto.StashFile{}, local, "stash-get", map[string]any{"session": "api", "name": put["name"]})
		g.pin("stash-get/data", &proto.StashFile{}, local, "stash-get", map[string]any{"session": "api", "name": put["name"], "data": true})

		g.pin("ask-agent", &proto.AgentReply{}, local, "ask-agent", map[string]any{"session": "api", "window": "worker", "text": "ping", "force": true, "settle": 1000, "timeout": 30000})
		g.pin("list-outbox", &proto.OutboxList{}, local, "list-outbox", map[string]any{})
	}

	// The Inbox: dismiss and mark an errored pane's item; the reply queue.
	{
		_, sock := server(t)
		r := personRPC(t, sock)
		w := catPane(t, r, "inb")
		g.subst("$INB", w)
		report(t, r, w, "errored", "", "tests failed")
		l := waitList(t, r, nil, "errored item", func(l attList) bool { return l.Total == 1 })
		g.pin("dismiss-attention", &proto.AttentionDismissed{}, r, "dismiss-attention", map[string]any{"id": l.Items[0].ID})
		g.pin("mark-attention/undo", &proto.AttentionMarked{}, r, "mark-attention", map[string]any{"action": "undo"})
		g.pin("mark-attention/snooze", &proto.AttentionMarked{}, r, "mark-attention", map[string]any{"action": "snooze", "session": "inb", "window": w, "kind": "errored", "until_change": true})
		g.pin("mark-attention/undo/nothing-newer", &proto.AttentionMarked{}, r, "mark-attention", map[string]any{"action": "undo"})

		r.must("set-agent-state", map[string]any{"session": "inb", "window": w, "state": "working", "harness": "claude-code"})
		g.pin("queue-prompt", &proto.PromptQueued{}, r, "queue-prompt", map[string]any{"session": "inb", "window": w, "text": "next: the docs"})
		g.pin("queue-prompt/second", &proto.PromptQueued{}, r, "queue-prompt", map[string]any{"session": "inb", "window": w, "text": "then the tests"})
	}

	// respond to a held approval.
	{
		h := newHoldRig(t, "")
		g.subst("$HELD", h.window)
		h.block("approve Bash: make test")
		h.request(map[string]any{"summary": "approve Bash: make test", "tool": "Bash", "target": "make test"})
		it := h.held()
		g.subst("$REQ", str(it["held_id"]))
		g.pin("respond/held", &proto.HeldPromptResponse{}, h.r, "respond", map[string]any{"window": h.window, "action": "approve", "human_nonce": h.nonce})
	}

	// Review: a diff, notes added, edited, listed, removed and cleared,
	// and notes sent (one withheld: its pane closed).
	{
		repo := reviewRepo(t)
		g.subst("$REPO", repo)
		srv, sock := serverWith(t, nil)
		r := dialRPC(t, sock)
		person := personRPC(t, sock)
		r.must("new-session", map[string]any{"name": "rv"})
		worker := reviewPane(t, r, "rv", "worker", repo)
		lead := reviewPane(t, r, "rv", "lead", repo)
		g.subst("$RVWORKER", worker)
		g.subst("$RVLEAD", lead)
		g.subst("$RVLEAD8", lead[:8])
		r.must("wait-for", map[string]any{"window": worker, "condition": "window-output", "pattern": "ready", "timeout": 10000})
		r.must("set-agent-state", map[string]any{"session": "rv", "window": worker, "state": "working", "harness": "claude-code"})

		g.pin("review-diff", &proto.ReviewDiff{}, r, "review-diff", map[string]any{"session": "rv", "window": "worker"})
		g.pin("review-note/list/empty", &proto.ReviewNotes{}, r, "review-note", map[string]any{"session": "rv", "window": "worker"})
		added := g.pin("review-note/add", &proto.ReviewNotes{}, person, "review-note", map[string]any{"action": "add", "session": "rv", "window": "worker", "path": "api/retry.go", "line": 42, "text": "log the attempt number", "human_nonce": person.nonce})
		g.pin("review-note/edit", &proto.ReviewNotes{}, person, "review-note", map[string]any{"action": "edit", "session": "rv", "window": "worker", "id": added["id"], "text": "log the attempt", "human_nonce": person.nonce})
		extra := g.pin("review-note/add/second", &proto.ReviewNotes{}, r, "review-note", map[string]any{"action": "add", "session": "rv", "window": "worker", "path": "api/retry.go", "line": 1, "text": "a header"})
		g.pin("review-note/remove", &proto.ReviewNotes{}, r, "review-note", map[string]any{"action": "remove", "session": "rv", "window": "worker", "id": extra["id"]})
		withReviewer(srv, func(book *review.Notebook) {
			book.Add(review.Note{Session: "rv", Window: worker, Worktree: repo, Path: "api/retry.go", Side: "new", Line: 1, Quote: "line 1", Text: "from lead", By: lead})
		})
		g.pin("review-note/list", &proto.ReviewNotes{}, r, "review-note", map[string]any{"session": "rv", "window": "worker"})
		g.pin("review-diff/notes", &proto.ReviewDiff{}, r, "review-diff", map[string]any{"session": "rv", "window": "worker"})
		r.must("close-window", map[string]any{"window": lead})
		g.pin("send-review", &proto.ReviewSent{}, person, "send-review", map[string]any{"session": "rv", "window": "worker", "human_nonce": person.nonce})
		g.pin("review-note/clear", &proto.ReviewNotes{}, r, "review-note", map[string]any{"action": "clear", "session": "rv", "window": "worker"})
	}

	got := strings.Join(g.lines, "\n") + "\n"
	golden := filepath.Join("testdata", "wire_features.golden")
	if *updateFeatureWire {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (make it with -update-feature-wire)", err)
	}
	if got != string(want) {
		t.Errorf("the feature results' bytes changed:\n%s", lineDiff(string(want), got))
	}
}

// wireGolden collects the pinned results, one "LABEL JSON" line each.
type wireGolden struct {
	t     *testing.T
	lines []string
	names []string // substitutions, longest value first when applied
	vals  map[string]string
	vary  map[string]bool // keys whose value changes run to run
}

// subst names a value that differs run to run (a pane id, a temporary
// directory) wherever it appears in a string.
func (g *wireGolden) subst(name, value string) {
	if g.vals == nil {
		g.vals = map[string]string{}
	}
	g.vals[name] = value
	g.names = append(g.names, name)
}

// pin calls verb on r, after starting it, runs each of then (a wait that
// something else answers), and records the result's raw bytes. typed
// points to the result's type in internal/proto: the bytes decode into
// it with no field left over and encode back to the same bytes.
func (g *wireGolden) pin(label string, typed any, r *rpc, verb string, params map[string]any, then ...func()) map[string]any {
	g.t.Helper()
	if r.nonce != "" && r.takesNonce[verb] {
		if _, ok := params["human_nonce"]; !ok {
			params["human_nonce"] = r.nonce
		}
	}
	b, _ := json.Marshal(map[string]any{"id": 1, "verb": verb, "params": params})
	r.c.SetDeadline(time.Now().Add(guard))
	defer r.c.SetDeadline(time.Time{})
	if _, err := r.c.Write(append(b, '\n')); err != nil {
		g.t.Fatalf("%s: write: %v", label, err)
	}
	for _, fn := range then {
		fn()
	}
	line, err := proto.ReadLine(r.r, proto.MaxLine)
	if err != nil {
		g.t.Fatalf("%s: no answer: %v", label, err)
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *proto.Error    `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || resp.Error != nil || len(resp.Result) == 0 {
		g.t.Fatalf("%s: %s", label, line)
	}
	dec := json.NewDecoder(bytes.NewReader(resp.Result))
	dec.DisallowUnknownFields()
	if err := dec.Decode(typed); err != nil {
		g.t.Errorf("%s: as %T: %v", label, typed, err)
	} else if again, _ := json.Marshal(typed); !bytes.Equal(again, resp.Result) {
		g.t.Errorf("%s: %T encodes differently:\n sent %s\n  got %s", label, typed, resp.Result, again)
	}
	stable, err := g.stable(resp.Result)
	if err != nil {
		g.t.Fatalf("%s: %v in %s", label, err, resp.Result)
	}
	g.lines = append(g.lines, label+" "+stable)
	var m map[string]any
	json.Unmarshal(resp.Result, &m)
	return m
}

// stable re-encodes b in its own key order with what varies named.
func (g *wireGolden) stable(b []byte) (string, error) {
	names := append([]string(nil), g.names...)
	sort.SliceStable(names, func(i, j int) bool { return len(g.vals[names[i]]) > len(g.vals[names[j]]) })
	var pairs []string
	for _, n := range names {
		pairs = append(pairs, g.vals[n], n)
	}
	rep := strings.NewReplacer(pairs...)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	if err := g.value(dec, &out, rep, false); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("more after the result")
	}
	return out.String(), nil
}

// value copies one JSON value from dec to out, in order; varies says its
// key is one whose value changes run to run (a clock, a duration, a
// commit hash): its value is named by its kind only.
func (g *wireGolden) value(dec *json.Decoder, out *bytes.Buffer, rep *strings.Replacer, varies bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closer := map[json.Delim]byte{'{': '}', '[': ']'}[v]
		out.WriteByte(byte(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			vary := false
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := json.Marshal(k)
				out.Write(key)
				out.WriteByte(':')
				vary = g.vary[k.(string)]
			}
			if err := g.value(dec, out, rep, vary); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		out.WriteByte(closer)
	case string:
		s := rep.Replace(v)
		if varies && v != "" {
			s = "<varies>"
		}
		q, _ := json.Marshal(s)
		out.Write(q)
	case json.Number:
		if varies {
			out.WriteString(`"<varies:number>"`)
		} else {
			out.WriteString(v.String())
		}
	case bool:
		fmt.Fprint(out, v)
	case nil:
		out.WriteString("null")
	}
	return nil
}
