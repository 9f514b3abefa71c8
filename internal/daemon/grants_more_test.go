package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// keyEcho is a pane program that prints every key it reads as key=HEX.
const keyEcho = `stty raw -echo; while :; do k=$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'); printf 'key=%s\r\n' "$k"; done`

// Who may give grants: the person anything; a pane never respond, never
// more than it holds, and without admin only its own grants and only
// fewer. TUIOS_PANE_GRANTS and pane-grants say what a pane holds.
func TestSetPaneGrantsRules(t *testing.T) {
	t.Parallel()
	_, sock := serverWith(t, func(o *Options) { o.Config = strictFile("read", "write") })
	person := dialRPC(t, sock)
	person.must("new-session", map[string]any{"name": "w", "argv": []string{"/bin/sh", "-c", quietSleeper}})
	admin := relayPane(t, person, sock, "w", "lead", "admin")
	writer := relayPane(t, person, sock, "w", "worker", "")
	target := str(person.must("new-window", map[string]any{"session": "w", "name": "t", "argv": []string{"/bin/sh", "-c", quietSleeper}, "no_focus": true})["window_id"])

	// The env says what each pane started with.
	envOf := func(id string) string {
		b, _ := os.ReadFile("/proc/" + str(person.must("get-window", map[string]any{"window": id})["pid"]) + "/environ")
		for _, kv := range strings.Split(string(b), "\x00") {
			if v, ok := strings.CutPrefix(kv, "TUIOS_PANE_GRANTS="); ok {
				return v
			}
		}
		return "(unset)"
	}
	if e := envOf(admin.id); e != "admin" {
		t.Fatalf("the lead started with TUIOS_PANE_GRANTS=%s", e)
	}
	if e := envOf(writer.id); e != "read,write" {
		t.Fatalf("the worker started with TUIOS_PANE_GRANTS=%s (the strict default)", e)
	}

	a, w := admin.rpc(), writer.rpc()
	pg := w.must("pane-grants", map[string]any{})
	if pg["window"] != writer.id || pg["explicit"] != false || pg["mode"] != "strict" || str(pg["grants"]) != "[read write]" || pg["via"] != "pid" {
		t.Fatalf("pane-grants from the worker: %v", pg)
	}
	if out := person.must("pane-grants", map[string]any{}); out["window"] != nil || str(out["default_grants"]) != "[read write]" {
		t.Fatalf("pane-grants outside every pane: %v", out)
	}

	refused := func(r *rpc, what string, params map[string]any, words ...string) {
		t.Helper()
		_, err := r.call("set-pane-grants", params)
		if err == nil || err.Code != proto.CodeForbidden {
			t.Fatalf("%s: want forbidden, got %v", what, err)
		}
		for _, wd := range words {
			if !strings.Contains(err.Message, wd) {
				t.Fatalf("%s: %q does not say %q", what, err.Message, wd)
			}
		}
	}
	refused(a, "admin gives respond (G3)", map[string]any{"window": target, "grants": "respond"}, "only the person")
	refused(w, "a pane without admin changes another", map[string]any{"window": target, "grants": "read"}, "only its own")
	refused(w, "a pane without admin widens itself", map[string]any{"window": writer.id, "grants": "read,write,fan"}, "widen")
	if res := a.must("set-pane-grants", map[string]any{"window": target, "grants": "read,fan"}); str(res["grants"]) != "[read fan]" || res["previous_explicit"] != false {
		t.Fatalf("admin gives what it holds: %v", res)
	}
	if row := person.must("get-window", map[string]any{"window": target}); str(row["grants"]) != "[read fan]" {
		t.Fatalf("get-window of a pane given grants: %v", row["grants"])
	}
	if row := person.must("get-window", map[string]any{"window": writer.id}); row["grants"] != nil {
		t.Fatalf("get-window of a pane on the default shows grants: %v", row["grants"])
	}
	if h := person.must("hello", nil); h["pane_grants"] != true || h["link_policy"] != true {
		t.Fatalf("hello: %v", h)
	}
	if res := w.must("set-pane-grants", map[string]any{"window": writer.id, "grants": "read"}); str(res["grants"]) != "[read]" {
		t.Fatalf("a pane narrows itself: %v", res)
	}
	refused(w, "a pane resets itself wider", map[string]any{"window": writer.id, "reset": true}, "widen")
	// It holds read now: typing is refused at once, with the command.
	_, err := w.call("send-text", map[string]any{"window": target, "text": "x"})
	if err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "write grant") || err.Hint == nil || !strings.Contains(err.Hint.Detail, "set-pane-grants") {
		t.Fatalf("typing after narrowing: %v", err)
	}
	if res := person.must("set-pane-grants", map[string]any{"window": writer.id, "grants": "admin,respond"}); str(res["grants"]) != "[respond admin]" {
		t.Fatalf("the person gives respond: %v", res)
	}
	if res := person.must("set-pane-grants", map[string]any{"window": writer.id, "reset": true}); res["explicit"] != false || str(res["grants"]) != "[read write]" {
		t.Fatalf("reset: %v", res)
	}
	for _, bad := range []map[string]any{{"window": target}, {"window": target, "grants": "read", "reset": true}, {"window": target, "grants": "root"}} {
		if _, err := person.call("set-pane-grants", bad); err == nil || err.Code != proto.CodeInvalidParams {
			t.Fatalf("%v: want invalid_params, got %v", bad, err)
		}
	}
	// Over a link it is refused whatever the policy allows.
	l := linkRPC(t, sock, "far", false)
	if _, err := l.call("set-pane-grants", map[string]any{"window": target, "grants": "read"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("over a link: %v", err)
	}
	// A pane never gives a new pane more than it holds; without
	// --grants, a pane without admin gives its own.
	if _, err := a.call("new-window", map[string]any{"session": "w", "grants": "respond", "argv": []string{"true"}}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("new-window --grants respond from an admin pane: %v", err)
	}
	fan := relayPane(t, person, sock, "w", "fanner", "read,fan")
	res, perr := fan.rpc().call("start-agent", map[string]any{"agent": "/bin/sleep", "args": []string{"100"}, "ready_timeout": 300})
	if perr != nil {
		t.Fatalf("start-agent from a fan pane: %v", perr)
	}
	started := str(res["window_id"])
	if got := person.must("pane-grants", map[string]any{"window": started}); str(got["grants"]) != "[read fan]" || got["explicit"] != true {
		t.Fatalf("the agent a fan pane started holds %v", got)
	}
	if _, err := fan.rpc().call("start-agent", map[string]any{"agent": "/bin/true", "grants": "read,write"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("start-agent --grants wider than the caller: %v", err)
	}
	if _, err := fan.rpc().call("start-agent", map[string]any{"agent": "/bin/true", "session": "fresh"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("start-agent in a new session without admin: %v", err)
	}
}

// Grants are saved with the window: a restored pane holds what it was
// given, and its new shell is told so.
func TestGrantsSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	srv := daemonAt(t, sock, state, strictFile("read"))
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "w"})
	given := str(r.must("new-window", map[string]any{"session": "w", "name": "given", "grants": "write,respond"})["window_id"])
	plain := str(r.must("new-window", map[string]any{"session": "w", "name": "plain"})["window_id"])
	srv.Close()
	daemonAt(t, sock, state, strictFile("read"))
	r2 := dialRPC(t, sock)
	if g := r2.must("pane-grants", map[string]any{"window": given}); str(g["grants"]) != "[write respond]" || g["explicit"] != true || g["env"] != "write,respond" {
		t.Fatalf("the given pane after a restart: %v", g)
	}
	if g := r2.must("pane-grants", map[string]any{"window": plain}); str(g["grants"]) != "[read]" || g["explicit"] != false {
		t.Fatalf("the default pane after a restart: %v", g)
	}
	shellSays(t, r2, given, `echo "g=$TUIOS_PANE_GRANTS"`, "g=write,respond")
}

// Changes that wait (docs/security.md, What a pane may do): a file edit that narrows applies at
// once; one that widens waits, with an Inbox item and pane-grants saying
// so, until tuios config apply from outside every pane (refused inside
// one); a narrowing then a widening back does not widen. A daemon that
// starts wider than its last run says so.
func TestGrantsChangesThatWait(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	cfgPath := filepath.Join(home, ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfgPath), 0o700)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(cfgPath, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const strictRW = "[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\", \"write\"]\n"
	write(strictRW)
	load := func() *config.File {
		f, err := config.Load(cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(home, "state")
	srv := daemonAt(t, sock, state, load())
	person := dialRPC(t, sock)
	person.must("new-session", map[string]any{"name": "w", "argv": []string{"/bin/sh", "-c", quietSleeper}})
	pane := relayPane(t, person, sock, "w", "p", "")
	inPane := pane.rpc()
	mode := func() (string, []any) {
		g := person.must("pane-grants", map[string]any{})
		p, _ := g["pending"].([]any)
		return str(g["mode"]) + " " + str(g["default_grants"]), p
	}
	configItem := func(thing string) map[string]any {
		l := person.must("list-attention", map[string]any{"kinds": []string{"config"}})
		items, _ := l["items"].([]any)
		for _, x := range items {
			it := x.(map[string]any)
			if it["thing"] == thing {
				return it
			}
		}
		return nil
	}

	write("[agents.permissions]\nmode = \"open\"\n") // widens: waits
	eventually(t, "the widening is seen and waits", func() bool { _, p := mode(); return len(p) == 1 })
	if m, p := mode(); m != "strict [read write]" || !strings.Contains(str(p[0]), "strict (read,write) to open (admin)") {
		t.Fatalf("while it waits: %s %v", m, p)
	}
	if it := configItem("permissions"); it == nil || !strings.Contains(str(it["summary"]), "tuios config apply") {
		t.Fatalf("no Inbox item says it waits: %v", it)
	}
	if _, err := inPane.call("new-window", map[string]any{"session": "w", "argv": []string{"true"}}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("an admin verb while open waits: %v", err)
	}
	if g := inPane.must("pane-grants", map[string]any{}); len(g["pending"].([]any)) != 1 {
		t.Fatalf("pane-grants in the pane does not say what waits: %v", g)
	}
	if _, err := inPane.call("apply-config", map[string]any{}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("config apply from inside a pane: %v", err)
	}

	write("[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\"]\n") // narrows: at once
	eventually(t, "the narrowing applies", func() bool { m, _ := mode(); return m == "strict [read]" })
	if _, err := inPane.call("send-text", map[string]any{"window": pane.id, "text": "x"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("typing after the narrowing: %v", err)
	}
	// Each wait below names the change it waits for: the list of the
	// edit before can still be up a moment after its mode applied.
	waits := func(change string) bool {
		_, p := mode()
		return len(p) == 1 && strings.Contains(str(p[0]), change)
	}
	write(strictRW) // back to what applied: still wider than in force, so it waits
	eventually(t, "the widening back waits", func() bool { return waits("strict (read) to strict (read,write)") })
	if m, _ := mode(); m != "strict [read]" {
		t.Fatalf("a narrowing and a widening back widened: %s", m)
	}

	write("[agents.permissions]\nmode = \"open\"\n")
	eventually(t, "the file is seen", func() bool { return waits("strict (read) to open (admin)") })
	res := person.must("apply-config", map[string]any{})
	if applied, _ := res["applied"].([]any); len(applied) != 1 || !strings.Contains(str(applied[0]), "open (admin)") {
		t.Fatalf("apply-config says %v", res)
	}
	if m, p := mode(); m != "open [admin]" || len(p) != 0 {
		t.Fatalf("after apply: %s %v", m, p)
	}
	eventually(t, "the Inbox item closes", func() bool { return configItem("permissions") == nil })
	inPane.must("new-window", map[string]any{"session": "w", "argv": []string{"true"}})

	// The next start finds what this run applied: nothing wider. One
	// that starts with more than the last run (the file edited while no
	// daemon ran) says so.
	srv.Close()
	write(strictRW)
	srv = daemonAt(t, sock, state, load())
	if g := dialRPC(t, sock).must("pane-grants", map[string]any{}); g["widened_at_start"] != nil {
		t.Fatalf("a narrower start reports widening: %v", g)
	}
	srv.Close()
	write("[agents.permissions]\nmode = \"open\"\n")
	srv = daemonAt(t, sock, state, load())
	person = dialRPC(t, sock)
	if g := person.must("pane-grants", map[string]any{}); !strings.Contains(str(g["widened_at_start"]), "strict (read,write) then, open (admin) now") {
		t.Fatalf("a wider start: %v", g)
	}
	if it := configItem("widened"); it == nil {
		t.Fatal("no Inbox item says the daemon started wider")
	}
	// respond_from_shell turned on while no daemon ran is said too.
	srv.Close()
	write("[agents.permissions]\nmode = \"open\"\n[daemon]\nrespond_from_shell = true\n")
	daemonAt(t, sock, state, load())
	if g := dialRPC(t, sock).must("pane-grants", map[string]any{}); !strings.Contains(str(g["widened_at_start"]), "respond_from_shell on") {
		t.Fatalf("respond_from_shell newly on: %v", g)
	}
}

// Readings of the edited file that overlap (the follower's debounce can
// start one while another still applies) never widen: once an edit
// narrowed the grants, no later reading puts back what it took.
func TestGrantsOverlappingReadingsOfTheFileNeverWiden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	cfgPath := filepath.Join(home, ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfgPath), 0o700)
	const strictRW = "[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\", \"write\"]\n"
	const strictR = "[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\"]\n"
	os.WriteFile(cfgPath, []byte(strictRW), 0o600)
	f, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := daemonAt(t, filepath.Join(dir, "s", "tuios.sock"), filepath.Join(home, "state"), f)
	// A round proves something only when a reading of the narrower file
	// applied: the two writers race, and the wider file may be all any
	// reading ever saw (then read and write stays in force, rightly).
	checked := 0
	for round := 0; checked < 20 && round < 400; round++ {
		srv.cfg.setApplied(f) // read and write, as at the start
		srv.applyPermissions(f, "test")
		var narrowed atomic.Bool
		done := make(chan struct{})
		for _, body := range []string{strictR, strictRW} {
			go func() {
				defer func() { done <- struct{}{} }()
				for i := 0; i < 5; i++ {
					os.WriteFile(cfgPath, []byte(body), 0o600)
					srv.cfg.changed()
					if permText(srv.perm.Load()) == "strict (read)" {
						narrowed.Store(true)
					}
				}
			}()
		}
		<-done
		<-done
		os.WriteFile(cfgPath, []byte(strictRW), 0o600)
		srv.cfg.changed() // a last reading: read and write, wider than in force
		if !narrowed.Load() {
			continue
		}
		checked++
		if p := srv.perm.Load(); permText(p) != "strict (read)" {
			t.Fatalf("round %d: after a narrowing, overlapping readings left %s in force", round, permText(p))
		}
	}
	if checked == 0 {
		t.Fatal("no round saw the narrower file applied")
	}
}

// The reply queue types as whoever queued: a pane whose grants narrowed
// before its entry came up has it dropped, nothing typed; the same entry
// from a pane that still may is typed.
func TestQueueTypesAsWhoQueuedIt(t *testing.T) {
	t.Parallel()
	_, sock := serverWith(t, func(o *Options) { o.Config = strictFile("read", "write") })
	person := dialRPC(t, sock)
	person.must("new-session", map[string]any{"name": "w", "argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", keyEcho}})
	target := str(person.must("get-window", map[string]any{"session": "w", "window": "0"})["window_id"])
	person.must("set-pane-grants", map[string]any{"window": target, "grants": "none"})
	person.must("set-agent-state", map[string]any{"window": target, "state": "working", "harness": "claude-code"})
	q := relayPane(t, person, sock, "w", "queuer", "")
	qr := q.rpc()
	qr.must("queue-prompt", map[string]any{"window": target, "text": "first"})
	person.must("set-pane-grants", map[string]any{"window": q.id, "grants": "read"}) // no more write
	person.must("set-agent-state", map[string]any{"window": target, "state": "idle", "harness": "claude-code"})
	eventually(t, "the entry is dropped", func() bool {
		return person.must("list-queued", map[string]any{"session": "w"})["total"] == float64(0)
	})
	if s := str(person.must("capture-pane", map[string]any{"window": target})["content"]); strings.Contains(s, "key=") {
		t.Fatalf("a pane that lost write had its entry typed:\n%s", s)
	}
	// Given write again, its next entry is typed.
	person.must("set-pane-grants", map[string]any{"window": q.id, "reset": true})
	person.must("set-agent-state", map[string]any{"window": target, "state": "working", "harness": "claude-code"})
	qr.must("queue-prompt", map[string]any{"window": target, "text": "second"})
	person.must("set-agent-state", map[string]any{"window": target, "state": "idle", "harness": "claude-code"})
	if _, err := person.call("wait-for", map[string]any{"window": target, "condition": "window-output", "pattern": "key=73", "timeout": 20000}); err != nil {
		t.Fatalf("the entry of a pane that may was not typed: %v", err)
	}
}

// The write path checks again right before the bytes go, asking the
// arbiter itself: a target on a prompt the call's check had not heard of
// is not typed into by a pane without respond; with respond it is.
func TestWritePathChecksThePromptAgain(t *testing.T) {
	t.Parallel()
	srv, sock := serverWith(t, func(o *Options) { o.Config = strictFile("read", "write") })
	person := dialRPC(t, sock)
	person.must("new-session", map[string]any{"name": "w", "argv": []string{"/bin/sh", "-c", keyEcho}})
	target := str(person.must("get-window", map[string]any{"session": "w", "window": "0"})["window_id"])
	person.must("set-pane-grants", map[string]any{"window": target, "grants": "none"})
	writer := relayPane(t, person, sock, "w", "writer", "")
	w, tw := srv.tab.WindowByID(target), srv.tab.WindowByID(writer.id)
	w.Tracked().Report(agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Harness: "claude-code"}, "")
	w.SetAtPrompt(false) // the call's check has not heard of the prompt yet
	by := mux.Caller{Pane: tw, Inside: true, Grants: grant.Read | grant.Write}
	err := srv.typeAs(context.Background(), "send-text", types, by, w, []byte("x"), time.Second, true)
	if err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "respond") {
		t.Fatalf("typing into a prompt that came up after the check: %v", err)
	}
	person.must("set-pane-grants", map[string]any{"window": writer.id, "grants": "read,write,respond"})
	if err := srv.typeAs(context.Background(), "send-text", types, by, w, []byte("y"), time.Second, true); err != nil {
		t.Fatalf("with respond: %v", err)
	}
	if _, err := person.call("wait-for", map[string]any{"window": target, "condition": "window-output", "pattern": "key=79", "timeout": 10000}); err != nil {
		t.Fatal("y was not typed")
	}
	if s := str(person.must("capture-pane", map[string]any{"window": target})["content"]); strings.Contains(s, "key=78") {
		t.Fatalf("x was typed:\n%s", s)
	}
	// A writer that never passed the gate types nothing.
	if err := srv.typeInto(&conn{s: srv, ctx: context.Background()}, w, []byte("z"), time.Second); err == nil {
		t.Fatal("an unchecked connection typed")
	}
}

// restrict-connection narrows and never widens: scope own reaches only
// the caller's session, read_only types nothing, and a second call may
// not undo either.
func TestRestrictConnection(t *testing.T) {
	t.Parallel()
	_, sock := serverWith(t, nil) // open: every pane holds admin
	person := dialRPC(t, sock)
	person.must("new-session", map[string]any{"name": "a", "argv": []string{"/bin/sh", "-c", quietSleeper}})
	person.must("new-session", map[string]any{"name": "b", "argv": []string{"/bin/sh", "-c", quietSleeper}})
	rl := relayPane(t, person, sock, "a", "mcp", "")
	r := rl.rpc()
	res := r.must("restrict-connection", map[string]any{"scope": "own", "read_only": true})
	if res["type"] != "connection_restricted" || res["session"] != "a" || res["window"] != rl.id || str(res["sessions"]) != "[a]" {
		t.Fatalf("restrict: %v", res)
	}
	for _, c := range []struct {
		verb   string
		params map[string]any
	}{
		{"capture-pane", map[string]any{"session": "b", "window": "0"}},
		{"send-text", map[string]any{"session": "a", "window": "0", "text": "x"}},
		{"new-window", map[string]any{"session": "a"}},
		{"list-agents", map[string]any{"all_sessions": true}},
		{"list-hosts", map[string]any{}},
	} {
		if _, err := r.call(c.verb, c.params); err == nil || err.Code != proto.CodeForbidden {
			t.Errorf("%s on a restricted connection: %v", c.verb, err)
		}
	}
	r.must("capture-pane", map[string]any{"session": "a", "window": "0"})
	r.must("set-agent-state", map[string]any{"state": "working"})
	r.must("send-agent-message", map[string]any{"to": "human", "text": "hi"})
	if l := r.must("list-sessions", nil); l["total"] != float64(1) {
		t.Fatalf("list-sessions on a restricted connection: %v", l)
	}
	for _, widen := range []map[string]any{{"scope": "all", "read_only": true}, {"scope": "own", "read_only": false}} {
		if _, err := r.call("restrict-connection", widen); err == nil || err.Code != proto.CodeForbidden {
			t.Fatalf("widening %v: %v", widen, err)
		}
	}
	if _, err := rl.rpc().call("restrict-connection", map[string]any{"pane_id": str(person.must("get-window", map[string]any{"session": "b", "window": "0"})["window_id"])}); err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "not the pane") {
		t.Fatalf("naming another pane: %v", err)
	}
	// Another connection of the same pane is not restricted.
	rl.rpc().must("send-text", map[string]any{"session": "a", "window": "0", "text": "x"})
	// Outside every pane, scope own reaches nothing; scope all every session.
	o := dialRPC(t, sock)
	o.must("restrict-connection", map[string]any{"scope": "own"})
	if _, err := o.call("capture-pane", map[string]any{"session": "a", "window": "0"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("scope own outside a pane: %v", err)
	}
	all := dialRPC(t, sock)
	all.must("restrict-connection", map[string]any{"scope": "all", "read_only": true})
	all.must("capture-pane", map[string]any{"session": "b", "window": "0"})
	if _, err := all.call("send-text", map[string]any{"session": "b", "window": "0", "text": "x"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("read_only with scope all: %v", err)
	}
}
