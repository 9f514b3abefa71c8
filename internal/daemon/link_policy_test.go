package daemon

import (
	"os"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// linkRPC is a raw connection that says link-peer first, as a
// stdio-proxy does: from then on it is another machine's link.
func linkRPC(t testing.TB, sock, peer string, pinned bool) *rpc {
	t.Helper()
	r := dialRPC(t, sock)
	res := r.must("link-peer", map[string]any{"peer": peer, "pinned": pinned})
	if res["type"] != "link_peer" {
		t.Fatalf("link-peer: %v", res)
	}
	return r
}

// policyFile is a config with hosts tables; allow nil leaves allow unset.
func policyFile(tables map[string]config.Host) *config.File {
	return &config.File{Hosts: tables}
}

func allow(caps ...string) *[]string { return &caps }

func yes() *bool { b := true; return &b }

func wantForbidden(t *testing.T, what string, err *proto.Error, words ...string) {
	t.Helper()
	if err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("%s: want forbidden, got %v", what, err)
	}
	text := err.Message
	if err.Hint != nil {
		text += " | " + err.Hint.Detail
	}
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Fatalf("%s: %q does not say %q", what, text, w)
		}
	}
}

// A verb added to the table without a declaration fails here: it would
// be refused to every caller, which must be a decision, not an accident.
// Its link part says what a link needs (capLocal: never over a link).
func TestEveryVerbIsDeclared(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	for _, name := range srv.verbs.Names() {
		a := srv.verbs.Lookup(name).Access
		if !a.Declared() {
			t.Errorf("verb %s declares no caller: give it a class in the verb table (access.go)", name)
		}
		if a.Who() == whoGranted && a.Grants() == 0 {
			t.Errorf("verb %s is for granted callers and needs no grant: declare it for anyone instead", name)
		}
	}
	if srv.poolVerb("no-such-verb") {
		t.Fatal("an unknown verb is poolable")
	}
	// A verb that declares nothing, or is local, is refused over a link,
	// whatever allows.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"*": {Allow: allow(config.LinkCapabilities()...)}}))
	cn := &conn{link: &linkPeer{name: "build"}}
	wantForbidden(t, "undeclared", srv.linkAllowed(cn, "no-such-verb", 0), "refused over links")
	wantForbidden(t, "local", srv.linkAllowed(cn, "kill-server", srv.verbs.Lookup("kill-server").Access), "refused over links")
	if err := srv.linkAllowed(cn, "respond", srv.verbs.Lookup("respond").Access); err != nil || !cn.link.asPerson {
		t.Fatalf("respond with every capability: %v %v", err, cn.link.asPerson)
	}
	// asPerson lasts one call.
	if err := srv.linkAllowed(cn, "list-sessions", srv.verbs.Lookup("list-sessions").Access); err != nil || cn.link.asPerson {
		t.Fatalf("after respond: %v %v", err, cn.link.asPerson)
	}
}

// X7: with no [hosts.*] tables a link may list, mail, open and write, and
// every respond-class verb is forbidden with a hint naming respond and the
// table; ask-human and kill-server are never served over a link.
func TestLinkDefaultPolicyX7(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	local := dialRPC(t, sock)
	w := catPane(t, local, "api")
	l := linkRPC(t, sock, "build", false)

	l.must("hello", map[string]any{"client": "far"})
	l.must("list-sessions", map[string]any{})                                        // list
	l.must("list-windows", map[string]any{"session": "api"})                         // list
	l.must("read-agent-messages", map[string]any{"session": "api"})                  // mail
	l.must("new-window", map[string]any{"session": "api", "name": "x"})              // open
	l.must("send-text", map[string]any{"session": "api", "window": w, "text": "hi"}) // write

	for verb, params := range map[string]map[string]any{
		"respond":               {"window": w, "prompt_id": "x", "action": "approve"},
		"reply-approval":        {"request_id": "r1", "decision": "once"},
		"dismiss-attention":     {"id": "x"},
		"mark-attention":        {"id": "x", "action": "wake"},
		"answer-ask":            {"request_id": "ask-1", "answer": "yes"},
		"release-agent-message": {"id": 1},
	} {
		_, err := l.call(verb, params)
		wantForbidden(t, verb, err, "respond", "[hosts.build]")
		if err.Hint == nil || err.Hint.Param != "allow" {
			t.Fatalf("%s: hint %+v", verb, err.Hint)
		}
	}
	for _, verb := range []string{"ask-human", "kill-server"} {
		_, err := l.call(verb, map[string]any{})
		wantForbidden(t, verb, err, "refused over links")
	}
	// The daemon lives on and the local caller is untouched.
	local.must("hello", map[string]any{})
}

// Every capability class, narrowed and widened by applyLinkPolicy, judged
// on the next call of an open link.
func TestLinkPolicyClassesAndResolution(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	local := dialRPC(t, sock)
	w := catPane(t, local, "api")
	l := linkRPC(t, sock, "build", false)
	other := linkRPC(t, sock, "gpu", false)

	calls := map[string]struct {
		verb   string
		params map[string]any
	}{
		"list":  {"list-windows", map[string]any{"session": "api"}},
		"mail":  {"read-agent-messages", map[string]any{"session": "api"}},
		"open":  {"new-window", map[string]any{"session": "api", "argv": []string{"/bin/cat"}}}, // unnamed: it opens many times
		"write": {"set-window", map[string]any{"session": "api", "window": w, "name": "worker"}},
	}
	check := func(r *rpc, who string, allowed ...string) {
		t.Helper()
		for c, call := range calls {
			_, err := r.call(call.verb, call.params)
			ok := strings.Contains(" "+strings.Join(allowed, " ")+" ", " "+c+" ")
			if ok && err != nil {
				t.Fatalf("%s %s (%s): %s %s", who, call.verb, c, err.Code, err.Message)
			}
			if !ok {
				wantForbidden(t, who+" "+call.verb, err, c)
			}
		}
		if _, err := r.call("hello", map[string]any{}); err != nil {
			t.Fatalf("%s hello: %v", who, err)
		}
	}

	// [hosts."*"] covers machines without a table; [hosts.build] replaces it.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"*": {Allow: allow("list")}, "build": {Allow: allow("mail", "write")}}))
	check(l, "build", "mail", "write")
	check(other, "gpu", "list")

	// A table without allow inherits [hosts."*"].
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"*": {Allow: allow("open")}, "build": {Addr: "b"}}))
	check(l, "build", "open")

	// allow = [] allows nothing but the verbs that need no capability.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow()}}))
	check(l, "build")
	_, err := l.call("list-sessions", map[string]any{})
	wantForbidden(t, "allow=[]", err, "allowed: nothing", "hosts.build")

	// Back to no tables: the default.
	srv.applyLinkPolicy(&config.File{})
	check(l, "build", "list", "mail", "open", "write")
	check(other, "gpu", "list", "mail", "open", "write")

	// A hop onward needs every capability; ask-agent needs mail and write.
	_, err = l.call("open-host-connection", map[string]any{"host": "far"})
	wantForbidden(t, "hop", err, "respond")
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("mail")}}))
	_, err = l.call("ask-agent", map[string]any{"session": "api", "window": w, "text": "?"})
	wantForbidden(t, "ask-agent", err, "write")
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow(config.LinkCapabilities()...)}}))
	if _, err = l.call("open-host-connection", map[string]any{"host": "far"}); err == nil || err.Code == proto.CodeForbidden {
		t.Fatalf("hop with every capability: %v", err)
	}
}

// A link caller is never placed in a pane and never the person: attach
// over a link gives no nonce, and a respond capability is what stands in.
func TestLinkCallerIsNoPaneAndNoPerson(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	l := linkRPC(t, sock, "build", false)
	res := l.must("attach", map[string]any{"client": "far", "session": "api"})
	if _, has := res["human_nonce"]; has {
		t.Fatalf("a link got a human nonce: %v", res)
	}
	// A stolen nonce is no use over a link either.
	p := personRPC(t, sock)
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("list", "mail", "write")}}))
	_, err := l.call("dismiss-attention", map[string]any{"id": "x", "human_nonce": p.nonce})
	wantForbidden(t, "nonce over link", err, "respond")

	// With respond, the verb passes as the person: the failure is the
	// item's, not not_human.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("list", "respond")}}))
	_, err = l.call("dismiss-attention", map[string]any{"id": "nope"})
	if err == nil || err.Code == codeNotHuman || err.Code == proto.CodeForbidden {
		t.Fatalf("dismiss with respond: %v", err)
	}
	// And respond stands in only for respond-class verbs: queue-prompt
	// with a nonce is still not the person's.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("list", "write", "respond")}}))
	_, err = l.call("queue-prompt", map[string]any{"session": "api", "window": "0", "text": "x", "human_nonce": "forged"})
	if err == nil || err.Code != codeNotHuman {
		t.Fatalf("queue-prompt as human over a link: %v", err)
	}
}

// A pinned name stands whatever the dialler says later; an unpinned link
// takes a name once and is never pinned by a later link-peer.
func TestLinkPeerPinnedAndUnpinned(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"lab": {Allow: allow("list")}, "build": {Allow: allow("list", "mail")}}))

	pinned := linkRPC(t, sock, "lab", true)
	res := pinned.must("link-peer", map[string]any{"peer": "build", "pinned": true})
	if res["peer"] != "lab" || res["pinned"] != true || res["changed"] != false {
		t.Fatalf("pinned: %v", res)
	}
	_, err := pinned.call("read-agent-messages", map[string]any{})
	wantForbidden(t, "pinned lab", err, "host lab", "mail", "[hosts.lab]")

	// As plain stdio-proxy does: no name first, the dialler's next.
	open := linkRPC(t, sock, "", false)
	res = open.must("link-peer", map[string]any{"peer": "Build.Example.COM", "pinned": true})
	if res["peer"] != "build" || res["pinned"] != false || res["changed"] != true {
		t.Fatalf("unpinned named: %v", res)
	}
	res = open.must("link-peer", map[string]any{"peer": "lab"})
	if res["peer"] != "build" || res["changed"] != false {
		t.Fatalf("renamed: %v", res)
	}

	// Names that no host could have are refused, the link unchanged.
	for _, bad := range []string{"a b", "local", "x/y", ".", strings.Repeat("a", 65), "é"} {
		r := dialRPC(t, sock)
		if _, err := r.call("link-peer", map[string]any{"peer": bad}); err == nil || err.Code != proto.CodeInvalidParams {
			t.Errorf("peer %q: %v", bad, err)
		}
	}
}

// Narrowing holds from the next call: no reconnect needed.
func TestLinkNarrowingAppliesToTheNextCall(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	l := linkRPC(t, sock, "build", false)
	l.must("list-sessions", map[string]any{})
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("mail")}}))
	_, err := l.call("list-sessions", map[string]any{})
	wantForbidden(t, "narrowed", err, "list")
}

func TestLinkPolicyResolution(t *testing.T) {
	t.Parallel()
	var nilFile *config.File
	if p := nilFile.LinkPolicy("x"); strings.Join(p.Allow, ",") != "list,mail,open,write" || p.From != "default" || p.HoldMail {
		t.Fatalf("default %+v", p)
	}
	no := false
	f := policyFile(map[string]config.Host{
		"*":     {Allow: allow("respond", "list", "bogus", "list"), HoldMail: yes()},
		"build": {HoldMail: &no},
		"lab":   {Allow: allow()},
	})
	p := f.LinkPolicy("gpu")
	if strings.Join(p.Allow, ",") != "list,respond" || p.From != `hosts."*"` || !p.HoldMail || strings.Join(p.Unknown, ",") != "bogus" {
		t.Fatalf("star %+v", p)
	}
	if p := f.LinkPolicy("build"); strings.Join(p.Allow, ",") != "list,respond" || p.HoldMail {
		t.Fatalf("build %+v", p)
	}
	if p := f.LinkPolicy("lab"); len(p.Allow) != 0 || p.From != "hosts.lab" || !p.HoldMail {
		t.Fatalf("lab %+v", p)
	}
	if p := f.LinkPolicy(""); p.From != `hosts."*"` {
		t.Fatalf("unnamed %+v", p)
	}
}

// TestLinkPeerHelper is not a test: run inside a pane (TUIOS_LINK_HELPER
// set) it is a program in that pane saying link-peer, and prints what the
// daemon answered.
func TestLinkPeerHelper(t *testing.T) {
	t.Parallel()
	sock := os.Getenv("TUIOS_LINK_HELPER")
	if sock == "" {
		t.Skip("a helper process, not a test")
	}
	r := dialRPC(t, sock)
	if _, perr := r.call("link-peer", map[string]any{"peer": "build", "pinned": true}); perr != nil {
		os.Stdout.WriteString("helper_result=" + perr.Code + "\n")
		return
	}
	os.Stdout.WriteString("helper_result=ok\n")
}

// A program in a pane cannot turn its connection into a link (and so shed
// what a pane may not do, or claim a peer's respond).
func TestLinkPeerRefusedFromAPane(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	exe, _ := os.Executable()
	id := str(r.must("new-session", map[string]any{"name": "p",
		"argv": []string{"sh", "-c", `TUIOS_LINK_HELPER="$1" "$2" -test.run='^TestLinkPeerHelper$'; sleep 60`, "sh", sock, exe}})["window_id"])
	r.must("wait-for", map[string]any{"session": "p", "window": id, "condition": "window-output", "pattern": "helper_result=", "timeout": 15000})
	out := str(r.must("capture-pane", map[string]any{"window": id})["content"])
	if !strings.Contains(out, "helper_result="+proto.CodeForbidden) {
		t.Fatalf("link-peer from a pane:\n%s", out)
	}
}

// With respond, a link answers a pane's prompt as the person would (no
// nonce), and the answer says it came over the link; without it, the same
// call is forbidden and the pane gets no key.
func TestLinkRespondWithTheCapability(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	a := dialRPC(t, sock)
	a.must("new-session", map[string]any{"name": "n", "argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", claudePrompt}})
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "agent-state", "until": "needs_input", "timeout": 15000})
	l := linkRPC(t, sock, "build", true)
	pk := l.must("peek-prompt", map[string]any{"session": "n", "window": "0"})
	answer := map[string]any{"session": "n", "window": "0", "action": "approve", "prompt_id": pk["prompt_id"], "timeout": 5000}
	_, err := l.call("respond", answer)
	wantForbidden(t, "respond without the capability", err, "respond", "[hosts.build]")

	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("list", "respond")}}))
	res := l.must("respond", answer)
	if res["by"] != "link:build" {
		t.Fatalf("respond: %v", res)
	}
	a.must("wait-for", map[string]any{"session": "n", "window": "0", "condition": "window-output", "pattern": "key=31", "timeout": 15000})
	if scr := str(a.must("capture-pane", map[string]any{"session": "n", "window": "0"})["content"]); strings.Count(scr, "key=") != 1 {
		t.Fatalf("the pane got other than one key:\n%s", scr)
	}
}
