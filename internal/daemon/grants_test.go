package daemon

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// strictFile is [agents.permissions] mode = "strict" with grants.
func strictFile(grants ...string) *config.File {
	f := &config.File{}
	f.Agents.Permissions = config.Permissions{Mode: "strict", Grants: &grants}
	return f
}

// promptSleeper draws a Claude Code permission prompt and then reads
// nothing and echoes nothing: typed bytes wait in the terminal, so the
// prompt stays on screen whatever the matrix types at it.
const promptSleeper = `printf '\n Bash command\n\n   touch hello.txt\n\n Do you want to proceed?\n \342\235\257 1. Yes\n   2. No\n\n'; stty -echo; exec sleep 100000`

// quietSleeper is a pane that reads and echoes nothing, waiting on no prompt.
const quietSleeper = `stty -echo; exec sleep 100000`

// grantWorld is two sessions, each with a pane on a prompt and one that
// is not, all holding read; and the callers, one relay pane per grants
// list, in session own.
type grantWorld struct {
	sock    string
	person  *rpc
	targets map[string]string // "own/prompt" → window id
	callers map[string]*relay
}

// callerGrants are the caller panes of the matrix.
var callerGrants = []string{"none", "read", "write", "read,write", "fan", "respond", "files", "admin", "read,write,respond", "admin,respond"}

func newGrantWorld(t *testing.T) *grantWorld {
	t.Helper()
	_, sock := serverWith(t, func(o *Options) { o.Config = strictFile("read") })
	g := &grantWorld{sock: sock, person: dialRPC(t, sock), targets: map[string]string{}}
	for _, ss := range []string{"own", "other"} {
		g.person.must("new-session", map[string]any{"name": ss, "argv": []string{"/bin/sh", "-c", quietSleeper}})
		g.targets[ss+"/quiet"] = str(g.person.must("get-window", map[string]any{"session": ss, "window": "0"})["window_id"])
		g.person.must("set-pane-grants", map[string]any{"session": ss, "window": "0", "grants": "read"})
		res := g.person.must("new-window", map[string]any{"session": ss, "name": "prompt", "no_focus": true, "grants": "read",
			"argv": []string{"env", "TUIOS_AGENT=claude-code", "/bin/sh", "-c", promptSleeper}})
		g.targets[ss+"/prompt"] = str(res["window_id"])
	}
	for _, ss := range []string{"own", "other"} {
		g.person.must("wait-for", map[string]any{"session": ss, "window": "prompt", "condition": "agent-state", "until": "needs_input", "timeout": 20000})
	}
	g.callers = relays(t, g.person, sock, "own", callerGrants)
	return g
}

// verbCase is one verb class of the matrix: a representative call and
// the rule the declaration gives for it.
type verbCase struct {
	class  string
	params func(session, window string) (string, map[string]any)
	// want says whether a pane holding g may make the call on a target
	// in its own session or not, at a prompt or not, and if not, the
	// code of the refusal.
	want func(g grant.Set, own, atPrompt bool) (ok bool, code string)
}

func typingRule(g grant.Set, own, atPrompt bool) (bool, string) {
	switch {
	case !g.Has(grant.Write), !own && !g.Has(grant.Admin),
		!g.Has(grant.Admin) && !g.Covers(grant.Read), // the target holds read
		atPrompt && !g.Has(grant.Respond):
		return false, proto.CodeForbidden
	}
	return true, ""
}

var matrixCases = []verbCase{
	{"read", func(s, w string) (string, map[string]any) {
		return "capture-pane", map[string]any{"session": s, "window": w}
	}, func(g grant.Set, own, _ bool) (bool, string) {
		return g.Has(grant.Read) && (own || g.Has(grant.Admin)), proto.CodeForbidden
	}},
	{"write", func(s, w string) (string, map[string]any) {
		return "send-text", map[string]any{"session": s, "window": w, "text": "x"}
	}, typingRule},
	{"mail", func(s, w string) (string, map[string]any) {
		return "send-agent-message", map[string]any{"session": s, "to": w, "text": "hello"}
	}, func(g grant.Set, own, _ bool) (bool, string) {
		return g.Has(grant.Write) && (own || g.Has(grant.Admin)), proto.CodeForbidden
	}},
	{"queue", func(s, w string) (string, map[string]any) {
		return "queue-prompt", map[string]any{"session": s, "window": w, "text": "later"}
	}, func(g grant.Set, own, atPrompt bool) (bool, string) {
		if g.Has(grant.Admin) { // the queue types at rest: an admin pane may queue for a pane on a prompt
			atPrompt = false
		}
		return typingRule(g, own, atPrompt)
	}},
	{"fan", func(s, _ string) (string, map[string]any) {
		return "start-agent", map[string]any{"session": s, "agent": "/bin/true", "ready_timeout": 3000}
	}, func(g grant.Set, own, _ bool) (bool, string) {
		return g.Has(grant.Fan) && (own || g.Has(grant.Admin)), proto.CodeForbidden
	}},
	{"respond", func(s, w string) (string, map[string]any) {
		return "respond", map[string]any{"session": s, "window": w, "action": "deny", "timeout": 200}
	}, func(g grant.Set, own, _ bool) (bool, string) {
		if !g.Has(grant.Respond) {
			return false, codeNotHuman
		}
		return own || g.Has(grant.Admin), proto.CodeForbidden
	}},
	{"admin", func(s, _ string) (string, map[string]any) {
		return "set-workspace-name", map[string]any{"session": s, "workspace": 9, "name": "nine"}
	}, func(g grant.Set, _, _ bool) (bool, string) {
		return g.Has(grant.Admin), proto.CodeForbidden
	}},
	{"person", func(string, string) (string, map[string]any) {
		return "dismiss-attention", map[string]any{"id": "1"}
	}, func(grant.Set, bool, bool) (bool, string) { return false, codeNotHuman }},
	{"report", func(s, w string) (string, map[string]any) {
		return "set-agent-state", map[string]any{"session": s, "window": w, "state": "none"}
	}, func(grant.Set, bool, bool) (bool, string) { return false, proto.CodeForbidden }}, // never another pane
}

// The strict-mode matrix over the control socket: each grant × each verb
// class × a target in the caller's own session or another × a target on
// a prompt or not, from real processes in real panes. A refusal has the
// code the declaration gives and names what to do; an allowed call is
// never refused for grants (it may fail for its own reasons: nothing to
// dismiss, no prompt to answer).
func TestGrantsStrictWorld(t *testing.T) {
	t.Parallel()
	g := newGrantWorld(t)
	t.Run("matrix over the control socket", func(t *testing.T) { grantsMatrixControl(t, g) })
	t.Run("matrix over the herdr socket", func(t *testing.T) { grantsMatrixHerdr(t, g) })
	t.Run("a pane reports only about itself", func(t *testing.T) { grantsReportsOnlyAboutItself(t, g) })
	t.Run("send-keys PREFIX from a pane", func(t *testing.T) { grantsSendKeysPrefix(t, g) })
	t.Run("herdr events of the sessions a pane reaches", func(t *testing.T) { grantsHerdrEvents(t, g) })
	t.Run("events of the sessions a pane reaches", func(t *testing.T) { grantsEvents(t, g) })
}

// subscribe from a pane without admin and no session hears its own
// session; naming another is refused.
func grantsEvents(t *testing.T, g *grantWorld) {
	r := g.callers["read"].rpc()
	if _, err := r.call("subscribe", map[string]any{"session": "other"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("subscribe to another session: %v", err)
	}
	r = g.callers["read"].rpc()
	r.must("subscribe", map[string]any{"types": []string{"window-created"}})
	g.person.must("new-window", map[string]any{"session": "other", "no_focus": true, "argv": []string{"/bin/sh", "-c", quietSleeper}})
	mine := str(g.person.must("new-window", map[string]any{"session": "own", "no_focus": true, "argv": []string{"/bin/sh", "-c", quietSleeper}})["window_id"])
	r.c.SetDeadline(time.Now().Add(guard))
	l, err := r.r.ReadString('\n')
	if err != nil || !strings.Contains(l, mine) || !strings.Contains(l, `"session":"own"`) {
		t.Fatalf("the first event a pane without admin hears: %q %v", l, err)
	}
}

// A herdr event stream of a pane without admin hears its own session's
// events only: a window opened in another session first, then one in its
// own, and the first event is its own session's.
func grantsHerdrEvents(t *testing.T, g *grantWorld) {
	c, err := net.Dial("unix", g.callers["read"].herdrS)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(guard))
	c.Write([]byte(`{"id":"s","method":"events.subscribe","params":{"subscriptions":[{"type":"pane_created"}]}}` + "\n"))
	rd := bufio.NewReader(c)
	if l, err := rd.ReadString('\n'); err != nil || !strings.Contains(l, "subscription_started") {
		t.Fatalf("subscribe: %q %v", l, err)
	}
	g.person.must("new-window", map[string]any{"session": "other", "no_focus": true, "argv": []string{"/bin/sh", "-c", quietSleeper}})
	mine := str(g.person.must("new-window", map[string]any{"session": "own", "no_focus": true, "argv": []string{"/bin/sh", "-c", quietSleeper}})["window_id"])
	l, err := rd.ReadString('\n')
	if err != nil || !strings.Contains(l, herdrHex(mine)) {
		t.Fatalf("the first event a pane without admin hears: %q %v (want its own session's window %s)", l, err, mine[:8])
	}
}

func grantsMatrixControl(t *testing.T, g *grantWorld) {
	for _, gs := range callerGrants {
		held, _ := grant.Parse(gs)
		r := g.callers[gs].rpc()
		for _, vc := range matrixCases {
			for _, sess := range []string{"own", "other"} {
				for _, tgt := range []string{"quiet", "prompt"} {
					verb, params := vc.params(sess, g.targets[sess+"/"+tgt])
					_, err := r.call(verb, params)
					ok, code := vc.want(held, sess == "own", tgt == "prompt")
					where := fmt.Sprintf("%s holding %s, %s (%s) on %s/%s", gs, held, vc.class, verb, sess, tgt)
					checkAdmission(t, where, err, ok, code)
				}
			}
		}
	}
}

// checkAdmission: an allowed call is never refused for grants; a refused
// one has the declared code, names the grant or the person and what to
// run next.
func checkAdmission(t *testing.T, where string, err *proto.Error, ok bool, code string) {
	t.Helper()
	refused := err != nil && (err.Code == proto.CodeForbidden || err.Code == codeNotHuman)
	switch {
	case ok && refused:
		t.Errorf("%s: refused (%s: %s), want allowed", where, err.Code, err.Message)
	case !ok && !refused:
		t.Errorf("%s: allowed (%v), want %s", where, err, code)
	case !ok && err.Code != code:
		t.Errorf("%s: %s (%s), want %s", where, err.Code, err.Message, code)
	case !ok && (err.Hint == nil || err.Hint.Command == "" && err.Hint.Detail == ""):
		t.Errorf("%s: %s without a hint: %s", where, err.Code, err.Message)
	}
}

// The same matrix through the herdr socket: its methods are admitted as
// the verbs they do the work of, and their panes pass the same target
// check.
func grantsMatrixHerdr(t *testing.T, g *grantWorld) {
	herdrCases := []struct {
		class  string
		method func(pane string) (string, map[string]any)
		want   func(g grant.Set, own, atPrompt bool) (bool, string)
	}{
		{"read", func(p string) (string, map[string]any) { return "pane.read", map[string]any{"pane_id": p} }, matrixCases[0].want},
		{"write", func(p string) (string, map[string]any) {
			return "pane.send_text", map[string]any{"pane_id": p, "text": "x"}
		}, typingRule},
		{"admin", func(p string) (string, map[string]any) {
			return "pane.rename", map[string]any{"pane_id": p, "label": "renamed"}
		}, func(g grant.Set, _, _ bool) (bool, string) { return g.Has(grant.Admin), proto.CodeForbidden }},
	}
	for _, gs := range callerGrants {
		held, _ := grant.Parse(gs)
		rl := g.callers[gs]
		for _, hc := range herdrCases {
			for _, sess := range []string{"own", "other"} {
				for _, tgt := range []string{"quiet", "prompt"} {
					method, params := hc.method(g.targets[sess+"/"+tgt])
					_, herr := rl.herdr(method, params)
					ok, code := hc.want(held, sess == "own", tgt == "prompt")
					where := fmt.Sprintf("%s holding %s, %s (%s) on %s/%s", gs, held, hc.class, method, sess, tgt)
					refused := herr != nil && (herr["code"] == proto.CodeForbidden || herr["code"] == codeNotHuman)
					switch {
					case ok && refused:
						t.Errorf("%s: refused %v, want allowed", where, herr)
					case !ok && !refused:
						t.Errorf("%s: %v, want %s", where, herr, code)
					}
				}
			}
		}
		// workspace.list shows a pane without admin its own session only.
		res, herr := rl.herdr("workspace.list", map[string]any{})
		want := 2
		if !held.Has(grant.Admin) {
			want = 1
		}
		if !held.Has(grant.Read) {
			if herr == nil || herr["code"] != proto.CodeForbidden {
				t.Errorf("%s: workspace.list without read: %v %v", gs, res, herr)
			}
			continue
		}
		if ws, _ := res["workspaces"].([]any); len(ws) != want {
			t.Errorf("%s: workspace.list lists %d workspaces, want %d: %v %v", gs, len(ws), want, res, herr)
		}
	}
}

// A pane reports only about itself, whatever it holds; a pane given
// nothing still may.
func grantsReportsOnlyAboutItself(t *testing.T, g *grantWorld) {
	for _, gs := range []string{"none", "admin"} {
		rl := g.callers[gs]
		r := rl.rpc()
		if res, err := r.call("set-agent-state", map[string]any{"window": rl.id, "state": "working", "message": "busy"}); err != nil || res["applied"] != true {
			t.Fatalf("%s: its own state: %v %v", gs, res, err)
		}
		if _, err := r.call("set-agent-state", map[string]any{"state": "idle"}); err != nil {
			t.Fatalf("%s: its own state, no window named: %v", gs, err)
		}
		_, err := r.call("set-agent-state", map[string]any{"window": g.targets["own/quiet"], "state": "working"})
		if err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "only about that pane") {
			t.Fatalf("%s: another pane's state: %v", gs, err)
		}
	}
}

// A pane with PREFIX in send-keys is refused with the commands to use;
// the prefix alone is a key like any other.
func grantsSendKeysPrefix(t *testing.T, g *grantWorld) {
	r := g.callers["admin,respond"].rpc()
	_, err := r.call("send-keys", map[string]any{"window": g.targets["own/quiet"], "keys": "ctrl+b,n"})
	if err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "new-window") {
		t.Fatalf("prefix chord from a pane: %v", err)
	}
	if _, err := r.call("send-keys", map[string]any{"window": g.targets["own/quiet"], "keys": "ctrl+b"}); err != nil {
		t.Fatalf("the prefix alone: %v", err)
	}
	// The word PREFIX (the agents page's name for the prefix key) is
	// refused from a pane even alone: it means the binding.
	for _, keys := range []string{"PREFIX", "PREFIX n", "prefix,n"} {
		_, err := r.call("send-keys", map[string]any{"window": g.targets["own/quiet"], "keys": keys})
		if err == nil || err.Code != proto.CodeForbidden || !strings.Contains(err.Message, "new-window") {
			t.Fatalf("send-keys %q from a pane: %v", keys, err)
		}
	}
	// The person's own send-keys is not a pane's: no refusal.
	if _, err := g.person.call("send-keys", map[string]any{"window": g.targets["own/quiet"], "keys": "ctrl+b,n"}); err != nil {
		t.Fatalf("the person's chord: %v", err)
	}
}
