package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/push/pushtest"
)

// Push notifications end to end: the real daemon (started by the CLI
// with SSL_CERT_FILE naming a test CA, and a token in its environment),
// a real pane running the pretend agent, and HTTPS servers on 127.0.0.1
// that speak ntfy's, Pushover's and the webhook's wire formats.

const (
	e2eNtfyToken = "tk_e2e_ntfy_0123456789abcdef"
	e2ePoApp     = "poapp0123456789abcdefghijklmn"
	e2ePoUser    = "pouser0123456789abcdefghijkl"
	e2eHookToken = "hook-e2e-0123456789"
	e2eTopic     = "e2e-topic-7f3a9c"
)

var e2eSecrets = []string{e2eNtfyToken, e2ePoApp, e2ePoUser, e2eHookToken, e2eTopic}

// pushWorld is an env whose daemon and CLI trust the test CA and hold
// the ntfy token in NTFY_TOKEN, with three providers' servers and a
// [notify] that names them: ntfy by token_env, Pushover's user key in a
// file of mode 0600, the webhook's token in a file of mode 0400.
type pushWorld struct {
	*env
	ca                   *pushtest.CA
	ntfy, pushover, hook *pushtest.Server
	extra                string // more [notify] keys
}

func newPushWorld(t *testing.T, extra string, hookMode pushtest.Mode) *pushWorld {
	t.Helper()
	e := newEnv(t)
	ca, err := pushtest.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(e.dir, "ca.pem")
	if err := ca.WriteFile(caFile); err != nil {
		t.Fatal(err)
	}
	w := &pushWorld{env: e, ca: ca, extra: extra,
		ntfy:     ca.Ntfy(e2eNtfyToken, pushtest.Mode{}),
		pushover: ca.Pushover(e2ePoApp, e2ePoUser, pushtest.Mode{}),
		hook:     ca.Webhook(e2eHookToken, hookMode)}
	t.Cleanup(func() { w.ntfy.Close(); w.pushover.Close(); w.hook.Close() })
	e.vars = append(e.vars, "SSL_CERT_FILE="+caFile, "NTFY_TOKEN="+e2eNtfyToken)
	secrets := filepath.Join(e.dir, "home", ".config", "tuios")
	if err := os.MkdirAll(secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(secrets, "pushover-user"), []byte(e2ePoUser+"\n"), 0o600)
	os.WriteFile(filepath.Join(secrets, "hook-token"), []byte(e2eHookToken), 0o400)
	w.writeConfig(w.ntfy.URL)
	return w
}

func (w *pushWorld) configPath() string {
	return filepath.Join(w.dir, "home", ".config", "tuios", "config.toml")
}

// writeConfig writes [notify] with ntfy at ntfyURL.
func (w *pushWorld) writeConfig(ntfyURL string) {
	w.t.Helper()
	conf := fmt.Sprintf(`[notify]
web_url = "https://term.example.com"
%s
[notify.ntfy]
url = "%s/%s"
token_env = "NTFY_TOKEN"
[notify.pushover]
url = "%s/1/messages.json"
user_file = "~/.config/tuios/pushover-user"
token = %q
[notify.webhook]
url = "%s/hooks/tuios"
token_file = "~/.config/tuios/hook-token"
`, w.extra, ntfyURL, e2eTopic, w.pushover.URL, e2ePoApp, w.hook.URL)
	if err := os.WriteFile(w.configPath(), []byte(conf), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *pushWorld) daemonLog() string {
	b, _ := os.ReadFile(filepath.Join(w.dir, "run", "tuios", "daemon.log"))
	return string(b)
}

func noE2ESecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range e2eSecrets {
		if strings.Contains(text, s) {
			t.Fatalf("%s holds a secret (%s):\n%s", what, s, text)
		}
	}
}

// startAgent opens a window running the pretend agent and returns when it
// waits on its permission prompt, with the time it was seen there.
func (w *pushWorld) startAgent(name string) time.Time {
	w.t.Helper()
	w.ok("new-window", "-s", "work", name, "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	w.ok("wait-for", "agent-state", "-s", "work", "-w", name, "--until", "needs_input", "--timeout", "20000")
	return time.Now()
}

// With nobody attached, a pane stopping on a permission prompt sends
// exactly one notification through each provider, within the settle and
// a second, in each provider's wire format; tuios notify test reports
// each provider; and no secret shows in the log, get-config or an error.
func TestPushWithNobodyAttached(t *testing.T) {
	t.Parallel()
	w := newPushWorld(t, "", pushtest.Mode{})
	w.ok("new", "--detach", "work")
	seen := w.startAgent("builder")
	var list struct {
		Items []struct{ Summary string } `json:"items"`
	}
	// The Inbox follows the state stream as wait-for does: its item may
	// land a moment after wait-for returned.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.json(&list, "list-attention")
		if len(list.Items) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(list.Items) != 1 {
		t.Fatalf("the Inbox: %+v", list)
	}
	for _, srv := range []*pushtest.Server{w.ntfy, w.pushover, w.hook} {
		if !srv.Wait(1, 10*time.Second) {
			t.Fatalf("%s got nothing; daemon log:\n%s", srv.Provider, w.daemonLog())
		}
		d := srv.Deliveries()
		if len(d) != 1 {
			t.Fatalf("%s: %d deliveries, refused %v", srv.Provider, len(d), srv.Refused())
		}
		// settle (2 s) + 1 s, from when wait-for saw the prompt.
		late := d[0].At.Sub(seen)
		t.Logf("%s: pushed %v after wait-for saw the prompt", srv.Provider, late.Round(time.Millisecond))
		if late > 3*time.Second {
			t.Fatalf("%s: the push came %v after the prompt", srv.Provider, late)
		}
		if d[0].Title != "Approval needed: builder (work)" || d[0].Message != list.Items[0].Summary ||
			!strings.HasPrefix(d[0].Click, "https://term.example.com/inbox?item=") {
			t.Fatalf("%s: %+v", srv.Provider, d[0])
		}
	}
	if d := w.ntfy.Deliveries()[0]; d.Auth != "Bearer "+e2eNtfyToken || d.Priority != "4" || d.Path != "/"+e2eTopic {
		t.Fatalf("ntfy: %+v", d)
	}
	if f := w.pushover.Deliveries()[0].Form; f.Get("token") != e2ePoApp || f.Get("user") != e2ePoUser || f.Get("priority") != "1" {
		t.Fatalf("pushover: %v", f)
	}
	if j := w.hook.Deliveries()[0].JSON; j["kind"] != "approval" || j["session"] != "work" || j["urgent"] != true || j["test"] != false ||
		j["harness"] != "claude-code" || w.hook.Deliveries()[0].Auth != "Bearer "+e2eHookToken {
		t.Fatalf("webhook: %v", j)
	}

	// Typed from a shell outside every pane (no attached client): not the
	// person at a client, nothing held. The pane takes its answer, works,
	// finishes (finished sends nothing by default); a second pane's
	// prompt is the next and only other push each provider gets.
	w.ok("send-text", "-s", "work", "-w", "builder", "1")
	w.ok("wait-for", "agent-state", "-s", "work", "-w", "builder", "--until", "idle,done", "--timeout", "20000")
	w.startAgent("tester")
	for _, srv := range []*pushtest.Server{w.ntfy, w.pushover, w.hook} {
		if !srv.Wait(2, 10*time.Second) {
			t.Fatalf("%s: the second pane's push never came", srv.Provider)
		}
		if d := srv.Deliveries(); len(d) != 2 || d[1].Title != "Approval needed: tester (work)" {
			t.Fatalf("%s: %+v", srv.Provider, d)
		}
	}

	// tuios notify test sends from the CLI, one line per provider.
	out := w.ok("notify", "test")
	want := fmt.Sprintf("ntfy (%s): sent.\npushover (%s): sent.\nwebhook (%s): sent.\n",
		strings.TrimPrefix(w.ntfy.URL, "https://"), strings.TrimPrefix(w.pushover.URL, "https://"), strings.TrimPrefix(w.hook.URL, "https://"))
	if out != want {
		t.Fatalf("notify test:\n%s\nwant:\n%s", out, want)
	}
	var js struct {
		Type    string `json:"type"`
		Results []struct {
			Provider, Host, Error string
			OK                    bool
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(w.ok("notify", "test", "--json")), &js); err != nil {
		t.Fatal(err)
	}
	if js.Type != "notify_test" || len(js.Results) != 3 || !js.Results[0].OK || js.Results[2].Provider != "webhook" {
		t.Fatalf("notify test --json: %+v", js)
	}
	if d := w.hook.Deliveries(); len(d) != 4 || d[3].JSON["test"] != true || d[3].JSON["kind"] != "test" {
		t.Fatalf("the test notification: %+v", d[len(d)-1])
	}

	// No secret anywhere the person or a pane can read.
	r := w.run("get-config", "notify.ntfy.token")
	if r.code != 1 || !strings.Contains(r.err, "forbidden") {
		t.Fatalf("get-config notify.ntfy.token: %+v", r)
	}
	noE2ESecret(t, "get-config", r.out+r.err)
	if out := w.ok("list-options"); strings.Contains(out, "notify.") {
		t.Fatalf("list-options lists [notify]:\n%s", out)
	}
	log := w.daemonLog()
	noE2ESecret(t, "the daemon log", log)
	if !strings.Contains(log, "push: ntfy ("+strings.TrimPrefix(w.ntfy.URL, "https://")+"): sent approval item") {
		t.Fatalf("the log does not say what was sent:\n%s", log)
	}
}

// A provider that fails: notify test says which and why, exits 1, and
// the others still send; the daemon's log says so, without a secret.
func TestPushProviderFailures(t *testing.T) {
	t.Parallel()
	w := newPushWorld(t, "", pushtest.Mode{Status: 500})
	r := w.run("notify", "test")
	if r.code != 1 || !strings.Contains(r.out, "ntfy (") || !strings.Contains(r.out, "): sent.\n") ||
		!strings.Contains(r.out, "webhook ("+strings.TrimPrefix(w.hook.URL, "https://")+"): failed. The server answered 500 Internal Server Error") ||
		!strings.Contains(r.err, "1 of 3 providers failed") {
		t.Fatalf("notify test: %+v", r)
	}
	noE2ESecret(t, "notify test", r.out+r.err)

	// The shell lacks the token: notify test reads its own environment.
	w.vars = slicesWithout(w.vars, "NTFY_TOKEN=")
	r = w.run("notify", "test", "--json")
	var js struct {
		Results []struct {
			Provider, Error string
			OK              bool
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.out), &js); err != nil || r.code != 1 || js.Results[0].OK ||
		js.Results[0].Error != "notify.ntfy.token_env names NTFY_TOKEN, which is not set in this shell's environment" {
		t.Fatalf("no token in the shell: %+v %+v", r, js)
	}
	if w.ntfy.Hits() != 1 {
		t.Fatalf("ntfy was sent to without its token")
	}

	// The webhook's 500 does not hold the others: the daemon sends to
	// ntfy and Pushover and logs the webhook's failure.
	w.vars = append(w.vars, "NTFY_TOKEN="+e2eNtfyToken)
	w.ok("new", "--detach", "work")
	w.startAgent("builder")
	// Before: ntfy 1 (the first test), Pushover and the webhook 2.
	if !w.ntfy.Wait(2, 10*time.Second) || !w.pushover.Wait(3, 10*time.Second) || !w.hook.Wait(3, 10*time.Second) {
		t.Fatalf("deliveries: ntfy %d pushover %d webhook hits %d", w.ntfy.Hits(), w.pushover.Hits(), w.hook.Hits())
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(w.daemonLog(), "approval item") || !strings.Contains(w.daemonLog(), "not sent: the server answered 500") {
		if time.Now().After(deadline) {
			t.Fatalf("the log:\n%s", w.daemonLog())
		}
		time.Sleep(20 * time.Millisecond)
	}
	noE2ESecret(t, "the daemon log", w.daemonLog())
}

func slicesWithout(vars []string, prefix string) []string {
	var out []string
	for _, v := range vars {
		if !strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// A pane cannot change where pushes go: set-config [notify] and config
// apply are refused inside it, and its edit of the file that points ntfy
// elsewhere waits (the log says so) while pushes keep going where the
// person applied. The person's tuios config apply, outside every pane,
// moves them.
func TestAPaneCannotRedirectPushes(t *testing.T) {
	t.Parallel()
	w := newPushWorld(t, "cooldown_seconds = 0", pushtest.Mode{})
	evil := w.ca.Ntfy("", pushtest.Mode{})
	defer evil.Close()
	w.ok("new", "--detach", "work")

	// A shell in a pane tries, and writes what each try answered.
	script := filepath.Join(w.dir, "pane.sh")
	newConf := w.configPath() + ".pane"
	os.WriteFile(script, []byte(fmt.Sprintf(`#!/bin/sh
tuios set-config notify.ntfy.url https://evil.example/x > %[1]s/set.out 2>&1; echo "exit $?" >> %[1]s/set.out
tuios config apply > %[1]s/apply.out 2>&1; echo "exit $?" >> %[1]s/apply.out
sed 's#%[2]s/#%[3]s/#' %[4]s > %[5]s && mv %[5]s %[4]s
echo done > %[1]s/pane.done
exec sleep 600
`, w.dir, w.ntfy.URL, evil.URL, w.configPath(), newConf)), 0o755)
	w.ok("new-window", "-s", "work", "intruder", "--no-focus", "--", "/bin/sh", script)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(w.dir, "pane.done")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pane's script did not finish")
		}
		time.Sleep(20 * time.Millisecond)
	}
	set, _ := os.ReadFile(filepath.Join(w.dir, "set.out"))
	apply, _ := os.ReadFile(filepath.Join(w.dir, "apply.out"))
	if !strings.Contains(string(set), "forbidden") || !strings.Contains(string(set), "exit 1") ||
		!strings.Contains(string(apply), "forbidden") || !strings.Contains(string(apply), "exit 1") {
		t.Fatalf("from a pane:\nset-config: %s\nconfig apply: %s", set, apply)
	}
	// The daemon saw the edit and holds it, named with whatever else waits.
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(w.daemonLog(), "waits for tuios config apply (from a terminal outside TUIOS): [notify.ntfy] (a new address, secret source or priority)") {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not say the edit waits:\n%s", w.daemonLog())
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.startAgent("builder")
	if !w.ntfy.Wait(1, 10*time.Second) {
		t.Fatalf("the applied ntfy got nothing:\n%s", w.daemonLog())
	}
	if evil.Hits() != 0 {
		t.Fatal("the pane's address got the push")
	}

	// The person applies it from outside: it moves.
	out := w.ok("config", "apply")
	if !strings.Contains(out, "notify: ntfy ("+strings.TrimPrefix(evil.URL, "https://")+") changed") {
		t.Fatalf("config apply:\n%s", out)
	}
	noE2ESecret(t, "config apply", out)
	w.startAgent("tester")
	if !evil.Wait(1, 10*time.Second) {
		t.Fatalf("after config apply, the new address got nothing:\n%s", w.daemonLog())
	}
	if n := len(w.ntfy.Deliveries()); n != 1 {
		t.Fatalf("the old address got %d", n)
	}
}

// The person typing in an attached client holds pushes: the prompt of a
// pane goes out only once quiet_active_seconds have passed since their
// last key, not at the settle.
func TestPushHeldWhileThePersonTypes(t *testing.T) {
	t.Parallel()
	w := newPushWorld(t, "quiet_active_seconds = 4", pushtest.Mode{})
	w.ok("new", "--detach", "work")
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	tmux := func(args ...string) {
		cmd := exec.Command(tm, append([]string{"-L", "push-" + filepath.Base(w.dir), "-f", "/dev/null"}, args...)...)
		cmd.Env = w.vars
		if out, err := cmd.CombinedOutput(); err != nil && args[0] != "kill-server" {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
	}
	t.Cleanup(func() { tmux("kill-server") })
	tmux("new-session", "-d", "-x", "120", "-y", "40", w.bin+" attach -t work")
	deadline := time.Now().Add(30 * time.Second)
	for {
		var info map[string]any
		w.json(&info, "session-info", "-s", "work")
		if info["attached"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client never attached: %v", info)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The person types into the focused shell while the agent, in
	// another window, stops on its prompt; they go on typing a little.
	w.ok("new-window", "-s", "work", "builder", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "4", "-step", "250ms")
	var lastKey time.Time
	for i := range 6 {
		tmux("send-keys", "-l", strconv.Itoa(i))
		lastKey = time.Now()
		time.Sleep(400 * time.Millisecond) // the person's pace
	}
	w.ok("wait-for", "agent-state", "-s", "work", "-w", "builder", "--until", "needs_input", "--timeout", "20000")
	if !w.ntfy.Wait(1, 15*time.Second) {
		t.Fatalf("never sent:\n%s", w.daemonLog())
	}
	at := w.ntfy.Deliveries()[0].At
	t.Logf("pushed %v after the last key", at.Sub(lastKey).Round(time.Millisecond))
	if at.Before(lastKey.Add(4 * time.Second)) {
		t.Fatalf("sent %v after the last key, within quiet_active_seconds (4 s)", at.Sub(lastKey))
	}
	// The typing reached the pane: it was the person at the client.
	if out := w.ok("capture-pane", "-s", "work", "-w", "0"); !strings.Contains(out, "012345") {
		t.Fatalf("the keys did not reach the shell:\n%s", out)
	}
}

// Proxies come from the environment (HTTPS_PROXY): a provider's name
// that only the proxy knows is reached through it, certificate checked
// end to end against the CA of SSL_CERT_FILE.
func TestNotifyTestThroughAProxy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ca, err := pushtest.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(e.dir, "ca.pem")
	ca.WriteFile(caFile)
	ntfy := ca.Ntfy("", pushtest.Mode{})
	defer ntfy.Close()
	proxy := pushtest.NewProxy()
	defer proxy.Close()
	port := ntfy.URL[strings.LastIndexByte(ntfy.URL, ':')+1:]
	dir := filepath.Join(e.dir, "home", ".config", "tuios")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte(fmt.Sprintf("[notify.ntfy]\nurl = \"https://%s:%s/%s\"\n", pushtest.ProxiedHost, port, e2eTopic)), 0o600)
	e.vars = append(e.vars, "SSL_CERT_FILE="+caFile)

	r := e.run("notify", "test")
	if r.code != 1 || !strings.Contains(r.out, "ntfy ("+pushtest.ProxiedHost+":"+port+"): failed. The host name does not resolve") {
		t.Fatalf("without a proxy: %+v", r)
	}
	e.vars = append(e.vars, "HTTPS_PROXY="+proxy.URL)
	if out := e.ok("notify", "test"); out != "ntfy ("+pushtest.ProxiedHost+":"+port+"): sent.\n" {
		t.Fatalf("through the proxy: %q", out)
	}
	if tun := proxy.Tunnels(); len(tun) != 1 || tun[0] != pushtest.ProxiedHost+":"+port || len(ntfy.Deliveries()) != 1 {
		t.Fatalf("tunnels %v, deliveries %d", tun, len(ntfy.Deliveries()))
	}
	noE2ESecret(t, "notify test", r.out+r.err)
}
