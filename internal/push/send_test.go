package push

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/push/pushtest"
)

// An approval sent through each provider arrives in that provider's own
// wire format, with its secret where the provider wants it.
func TestEachProviderGetsItsWireFormat(t *testing.T) {
	srv := newServers(t, pushtest.Mode{})
	s := srv.settings(t)
	it := inbox.Item{ID: "17", Kind: inbox.KindApproval, Session: "api", Window: "w-1", Name: "worker", Harness: "claude-code",
		Summary: "Bash: make test"}
	res := Send(context.Background(), s, FromItem(it, s), SendOptions{})
	if len(res) != 3 {
		t.Fatalf("results: %+v", res)
	}
	for i, want := range []string{"ntfy", "pushover", "webhook"} {
		if res[i].Provider != want || !res[i].OK || res[i].Host != "127.0.0.1:"+port(t, srv.byName(want).URL) {
			t.Fatalf("result %d: %+v", i, res[i])
		}
	}

	n := srv.ntfy.Deliveries()
	if len(n) != 1 {
		t.Fatalf("ntfy got %d", len(n))
	}
	if d := n[0]; d.Path != "/"+topic || d.Auth != "Bearer "+ntfyToken || d.Title != "Approval needed: worker (api)" ||
		d.Message != "Bash: make test" || d.Priority != "4" || d.Click != "https://term.example.com/inbox?item=17" || d.Tags != "tuios,approval" {
		t.Fatalf("ntfy: %+v", d)
	}

	p := srv.pushover.Deliveries()
	if len(p) != 1 {
		t.Fatalf("pushover got %d", len(p))
	}
	if f := p[0].Form; f.Get("token") != pushoverApp || f.Get("user") != pushoverUser || f.Get("message") != "Bash: make test" ||
		f.Get("title") != "Approval needed: worker (api)" || f.Get("priority") != "1" || f.Get("url") != "https://term.example.com/inbox?item=17" {
		t.Fatalf("pushover: %v", f)
	}

	h := srv.hook.Deliveries()
	if len(h) != 1 {
		t.Fatalf("webhook got %d", len(h))
	}
	want := map[string]any{"event": "tuios.inbox", "kind": "approval", "title": "Approval needed: worker (api)", "body": "Bash: make test",
		"link": "https://term.example.com/inbox?item=17", "urgent": true, "item_id": "17", "session": "api", "window": "w-1",
		"harness": "claude-code", "test": false}
	if h[0].Auth != "Bearer "+hookToken || h[0].Path != "/hooks/tuios" || fmt.Sprint(h[0].JSON) != fmt.Sprint(want) {
		t.Fatalf("webhook: %s %v", h[0].Auth, h[0].JSON)
	}
}

func (s servers) byName(name string) *pushtest.Server {
	switch name {
	case "ntfy":
		return s.ntfy
	case "pushover":
		return s.pushover
	}
	return s.hook
}

func port(t *testing.T, raw string) string {
	_, p, err := net.SplitHostPort(strings.TrimPrefix(raw, "https://"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// content = "title" sends the kind and the session only: nothing the
// pane wrote (its name, its line) leaves the machine. A finished turn is
// not urgent: ntfy's priority 3, Pushover's 0.
func TestTitleContentSendsNoPaneText(t *testing.T) {
	srv := newServers(t, pushtest.Mode{})
	s := srv.settings(t)
	s.TitleOnly = true
	it := inbox.Item{ID: "3", Kind: inbox.KindFinished, Session: "api", Window: "w-1", Name: "secret-project-name", Summary: "ran rm on prod-db"}
	for _, r := range Send(context.Background(), s, FromItem(it, s), SendOptions{}) {
		if !r.OK {
			t.Fatalf("%+v", r)
		}
	}
	all := append(append(srv.ntfy.Deliveries(), srv.pushover.Deliveries()...), srv.hook.Deliveries()...)
	for _, d := range all {
		text := fmt.Sprint(d.Title, d.Message, d.Form, d.JSON)
		if strings.Contains(text, "secret-project-name") || strings.Contains(text, "prod-db") {
			t.Fatalf("%s carried pane text: %s", d.Provider, text)
		}
		if !strings.Contains(text, "Finished in api") {
			t.Fatalf("%s lacks the kind and session: %s", d.Provider, text)
		}
	}
	if d := srv.ntfy.Deliveries()[0]; d.Priority != "3" {
		t.Fatalf("ntfy priority for a finished turn: %q", d.Priority)
	}
	if d := srv.pushover.Deliveries()[0]; d.Priority != "0" {
		t.Fatalf("pushover priority for a finished turn: %q", d.Priority)
	}
	if d := srv.hook.Deliveries()[0]; d.JSON["body"] != "" || d.JSON["urgent"] != false {
		t.Fatalf("webhook body at content=title: %v", d.JSON)
	}
}

// Secrets come from the environment given or a private file, and are
// read again on each send: a rotated token is used at once.
func TestSecretsAreReadOnEachSend(t *testing.T) {
	srv := newServers(t, pushtest.Mode{})
	dir := t.TempDir()
	file := filepath.Join(dir, "ntfy-token")
	if err := os.WriteFile(file, []byte("tk_old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOOK_TOKEN": hookToken}
	s := parseSettings(t, fmt.Sprintf(`
[notify.ntfy]
url = "%s/%s"
token_file = %q
[notify.webhook]
url = "%s/h"
token_env = "HOOK_TOKEN"
`, srv.ntfy.URL, topic, file, srv.hook.URL))
	opt := SendOptions{Getenv: func(k string) string { return env[k] }, Where: "the test's environment"}
	msg := TestNotification("box", s)

	res := Send(context.Background(), s, msg, opt)
	if res[0].OK || !strings.Contains(res[0].Error, "401 Unauthorized") || !strings.Contains(res[0].Error, "Check the token") || !res[1].OK {
		t.Fatalf("old token: %+v", res)
	}
	checkNoSecret(t, "error", res[0].Error)
	if err := os.WriteFile(file, []byte(ntfyToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env["HOOK_TOKEN"] = ""
	res = Send(context.Background(), s, msg, opt)
	if !res[0].OK {
		t.Fatalf("rotated token not read: %+v", res[0])
	}
	if res[1].OK || res[1].Error != "notify.webhook.token_env names HOOK_TOKEN, which is not set in the test's environment" {
		t.Fatalf("unset token_env: %+v", res[1])
	}
	if srv.hook.Hits() != 1 {
		t.Fatalf("a send without its token reached the webhook")
	}

	// A file others may read is refused, and nothing is sent.
	os.Chmod(file, 0o644)
	res = Send(context.Background(), s, msg, opt)
	if res[0].OK || !strings.Contains(res[0].Error, "mode 0644") || !strings.Contains(res[0].Error, "0600 or 0400") {
		t.Fatalf("0644 file: %+v", res[0])
	}
	checkNoSecret(t, "error", res[0].Error)
	os.Chmod(file, 0o400)
	if res = Send(context.Background(), s, msg, opt); !res[0].OK {
		t.Fatalf("0400 file: %+v", res[0])
	}
	if got := len(srv.ntfy.Deliveries()); got != 2 {
		t.Fatalf("ntfy deliveries: %d", got)
	}
}

// Whatever goes wrong, the error says what in words, and never holds a
// token, the user key or the topic (Go's own errors quote the URL).
func TestFailuresSayWhatWithoutSecrets(t *testing.T) {
	dead, _ := net.Listen("tcp", "127.0.0.1:0")
	deadURL := "https://" + dead.Addr().String()
	dead.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer plain.Close()
	foreign := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	foreign.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	foreign.StartTLS()
	defer foreign.Close()
	other := ca.Ntfy(ntfyToken, pushtest.Mode{})
	defer other.Close()
	toLocalhost := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)

	for _, c := range []struct {
		name string
		mode pushtest.Mode
		url  string // instead of the server's
		want string
	}{
		{"500", pushtest.Mode{Status: 500}, "", "the server answered 500 Internal Server Error"},
		{"never answers", pushtest.Mode{Hang: true}, "", "no answer within 300ms"},
		{"another host", pushtest.Mode{RedirectTo: toLocalhost}, "", "redirected to another host"},
		{"302", pushtest.Mode{RedirectTo: other.URL, RedirectCode: 302}, "", "redirected with 302 Found, which would drop the message"},
		{"to plain http", pushtest.Mode{RedirectTo: plain.URL}, "", "redirected to plain http"},
		{"refused", pushtest.Mode{}, deadURL, "the server refused the connection"},
		{"untrusted", pushtest.Mode{}, foreign.URL, "not signed by an authority this machine trusts"},
		{"plain http server", pushtest.Mode{}, strings.Replace(plain.URL, "http:", "https:", 1), "answers in plain http"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := ca.Ntfy(ntfyToken, c.mode)
			defer srv.Close()
			u := srv.URL
			if c.url != "" {
				u = c.url
			}
			s := parseSettings(t, fmt.Sprintf("[notify.ntfy]\nurl = %q\ntoken = %q\n", u+"/"+topic, ntfyToken))
			res := Send(context.Background(), s, TestNotification("box", s), SendOptions{Timeout: 300 * time.Millisecond})
			if res[0].OK || !strings.Contains(res[0].Error, c.want) {
				t.Fatalf("error %q lacks %q", res[0].Error, c.want)
			}
			checkNoSecret(t, "error", res[0].Error)
			if strings.Contains(res[0].Error, "://") {
				t.Fatalf("error shows an address: %s", res[0].Error)
			}
		})
	}
	if n := len(other.Deliveries()); n != 0 {
		t.Fatalf("a redirect that must be refused was followed %d times", n)
	}
}

// A 307 or 308 to the same host is followed, at most three times; plain
// http is followed only with allow_http_redirects.
func TestRedirectsThatAreFollowed(t *testing.T) {
	target := ca.Ntfy("", pushtest.Mode{})
	defer target.Close()
	hop := ca.Ntfy("", pushtest.Mode{RedirectTo: target.URL, RedirectCode: 308})
	defer hop.Close()
	s := parseSettings(t, fmt.Sprintf("[notify.ntfy]\nurl = %q\n", hop.URL+"/"+topic))
	if res := Send(context.Background(), s, TestNotification("box", s), SendOptions{}); !res[0].OK {
		t.Fatalf("a 308 to the same host: %+v", res[0])
	}
	if d := target.Deliveries(); len(d) != 1 || d[0].Path != "/"+topic || d[0].Message == "" {
		t.Fatalf("the redirect lost the message: %+v", d)
	}

	// A loop: the fourth redirect is refused.
	ring := ca.Ntfy("", pushtest.Mode{RedirectSelf: true})
	defer ring.Close()
	s = parseSettings(t, fmt.Sprintf("[notify.ntfy]\nurl = %q\n", ring.URL+"/"+topic))
	res := Send(context.Background(), s, TestNotification("box", s), SendOptions{})
	if res[0].OK || !strings.Contains(res[0].Error, "more than 3 times") || ring.Hits() != 4 {
		t.Fatalf("a redirect loop: %+v after %d requests", res[0], ring.Hits())
	}

	// https → http on the same host, with allow_http_redirects.
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }))
	defer plain.Close()
	down := ca.Ntfy("", pushtest.Mode{RedirectTo: plain.URL})
	defer down.Close()
	s = parseSettings(t, fmt.Sprintf("[notify]\nallow_http_redirects = true\n[notify.ntfy]\nurl = %q\n", down.URL+"/"+topic))
	if res := Send(context.Background(), s, TestNotification("box", s), SendOptions{}); !res[0].OK {
		t.Fatalf("https to http with allow_http_redirects: %+v", res[0])
	}
}

// A title that is not ASCII reaches ntfy whole (RFC 2047 in the header,
// which ntfy decodes), and a pane's name cannot add a header.
func TestNtfyTitleIsOneHeader(t *testing.T) {
	srv := ca.Ntfy("", pushtest.Mode{})
	defer srv.Close()
	s := parseSettings(t, fmt.Sprintf("[notify.ntfy]\nurl = %q\n", srv.URL+"/"+topic))
	it := inbox.Item{ID: "5", Kind: inbox.KindQuestion, Session: "api", Name: "wörker\r\nX-Injected: 1", Summary: "Weiter? ✓"}
	if res := Send(context.Background(), s, FromItem(it, s), SendOptions{}); !res[0].OK {
		t.Fatalf("%+v", res[0])
	}
	d := srv.Deliveries()[0]
	if d.Title != "Question: wörker X-Injected: 1 (api)" || d.Message != "Weiter? ✓" || d.Priority != "4" {
		t.Fatalf("%+v", d)
	}
}
