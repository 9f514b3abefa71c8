package push

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/push/pushtest"
)

// ca is the test CA. TestMain points SSL_CERT_FILE at it before anything
// loads the system's certificates, so every send in these tests trusts
// the test servers the way the daemon does: through the system's store.
var ca *pushtest.CA

func TestMain(m *testing.M) {
	var err error
	ca, err = pushtest.NewCA()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "pushca")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	file := filepath.Join(dir, "ca.pem")
	if err := ca.WriteFile(file); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("SSL_CERT_FILE", file)
	os.Setenv("SSL_CERT_DIR", dir) // only the test CA: no system certificate is needed here
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"} {
		os.Unsetenv(k)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Secrets the tests use: none may ever show up in an error or a log.
const (
	ntfyToken    = "tk_ntfysecret0123456789"
	pushoverApp  = "apptokensecret0123456789abcde"
	pushoverUser = "userkeysecret0123456789abcdef"
	hookToken    = "hooksecret-0123456789"
	topic        = "topicsecret-42"
)

var allSecrets = []string{ntfyToken, pushoverApp, pushoverUser, hookToken, topic}

// checkNoSecret fails if text holds any secret of the tests.
func checkNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range allSecrets {
		if strings.Contains(text, s) {
			t.Fatalf("%s holds a secret (%s): %s", what, s, text)
		}
	}
}

// servers are one of each provider, answering as the service.
type servers struct {
	ntfy, pushover, hook *pushtest.Server
}

func newServers(t *testing.T, mode pushtest.Mode) servers {
	t.Helper()
	s := servers{
		ntfy:     ca.Ntfy(ntfyToken, mode),
		pushover: ca.Pushover(pushoverApp, pushoverUser, mode),
		hook:     ca.Webhook(hookToken, mode),
	}
	t.Cleanup(func() { s.ntfy.Close(); s.pushover.Close(); s.hook.Close() })
	return s
}

// settings names the three servers with the secrets given as values.
func (s servers) settings(t *testing.T) config.PushSettings {
	t.Helper()
	return parseSettings(t, fmt.Sprintf(`
[notify]
web_url = "https://term.example.com/"
[notify.ntfy]
url = "%s/%s"
token = %q
[notify.pushover]
url = "%s/1/messages.json"
user = %q
token = %q
[notify.webhook]
url = "%s/hooks/tuios"
token = %q
`, s.ntfy.URL, topic, ntfyToken, s.pushover.URL, pushoverUser, pushoverApp, s.hook.URL, hookToken))
}

func parseSettings(t *testing.T, file string) config.PushSettings { return parseSettingsB(t, file) }

func parseSettingsB(t testing.TB, file string) config.PushSettings {
	t.Helper()
	f, err := config.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	ps := f.PushSettings()
	if len(ps.Problems) > 0 {
		t.Fatalf("problems: %v", ps.Problems)
	}
	return ps
}

// rig is a Notifier on a fake clock, with every result kept.
type rig struct {
	t       testing.TB
	clock   *fakeclock.Clock
	n       *Notifier
	results chan Result
	logs    chan string
	nextID  int
}

func newRig(t *testing.T, s config.PushSettings) *rig { return newRigTimeout(t, s, 2*time.Second) }

func newRigB(t testing.TB, s config.PushSettings) *rig { return newRigTimeout(t, s, 2*time.Second) }

func newRigTimeout(t testing.TB, s config.PushSettings, timeout time.Duration) *rig {
	t.Helper()
	r := &rig{t: t, clock: fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)), results: make(chan Result, 256), logs: make(chan string, 1024)}
	r.n = New(Options{Settings: s, Clock: r.clock, Send: SendOptions{Timeout: timeout},
		Logf:     func(f string, a ...any) { r.logs <- fmt.Sprintf(f, a...) },
		OnResult: func(res Result) { r.results <- res }})
	t.Cleanup(r.n.Close)
	return r
}

// item is an approval on pane w of session api, opened as the Inbox
// would.
func (r *rig) item(kind inbox.Kind, window, name, summary string) inbox.Item {
	r.nextID++
	return inbox.Item{ID: fmt.Sprint(r.nextID), Kind: kind, Session: "api", Window: window, Name: name, Harness: "claude-code", Summary: summary}
}

func (r *rig) open(it inbox.Item)   { r.n.Observe(inbox.Event{Op: inbox.OpOpen, Item: it}) }
func (r *rig) update(it inbox.Item) { r.n.Observe(inbox.Event{Op: inbox.OpUpdate, Item: it}) }
func (r *rig) close(it inbox.Item, why inbox.Reason) {
	it.Closed = why
	r.n.Observe(inbox.Event{Op: inbox.OpClose, Item: it})
}

// settle waits until no send runs: everything enqueued has been sent
// (each send is bounded by the 2 s timeout of the rig).
func (r *rig) settle() { r.n.waitIdle() }

// take returns the results that came, after settle.
func (r *rig) take() []Result {
	r.settle()
	var out []Result
	for {
		select {
		case res := <-r.results:
			out = append(out, res)
		default:
			return out
		}
	}
}
