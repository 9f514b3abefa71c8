package push

import (
	"context"
	"crypto/x509"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/version"
)

// Result is one provider's send.
type Result struct {
	Provider string `json:"provider"` // ntfy, pushover, webhook
	Host     string `json:"host"`
	OK       bool   `json:"ok"`
	// Error says why it failed: safe to show (no secret, no address
	// beyond the host).
	Error string `json:"error,omitempty"`
	// Kind and ItemID say what was sent ("test" and "" for notify test).
	Kind   string `json:"-"`
	ItemID string `json:"-"`
	// Took is how long the send took.
	Took time.Duration `json:"-"`
}

// SendOptions configure Send (and the Notifier's sends).
type SendOptions struct {
	// Getenv reads token_env and user_env (and HOME for ~/ in a file
	// path); nil is os.Getenv.
	Getenv func(string) string
	// Where names that environment in errors; "" is "this process's
	// environment".
	Where string
	// RootCAs replaces the system's certificates (embedders); nil uses
	// the system's store, SSL_CERT_FILE and SSL_CERT_DIR.
	RootCAs *x509.CertPool
	// Timeout bounds each send; 0 is SendTimeout.
	Timeout time.Duration
}

// sender sends notifications to providers: the clients and the secret
// reader every send shares.
type sender struct {
	strict, lenient *http.Client // lenient follows redirects to plain http
	secrets         secretReader
	timeout         time.Duration
	ua              string
}

func newSender(opt SendOptions) *sender {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.Where == "" {
		opt.Where = "this process's environment"
	}
	if opt.Timeout <= 0 {
		opt.Timeout = SendTimeout
	}
	return &sender{
		strict:  newClient(clientOptions{roots: opt.RootCAs, timeout: opt.Timeout}),
		lenient: newClient(clientOptions{allowHTTP: true, roots: opt.RootCAs, timeout: opt.Timeout}),
		secrets: secretReader{getenv: opt.Getenv, where: opt.Where, uid: os.Getuid()},
		timeout: opt.Timeout,
		ua:      "tuios/" + version.Get().Module,
	}
}

// send delivers n through p, the secrets read now. It never returns an
// error that holds a secret or the address beyond its host.
func (s *sender) send(ctx context.Context, p Provider, n Notification, allowHTTP bool) Result {
	start := time.Now()
	r := Result{Provider: p.Name, Host: p.Host, Kind: n.Kind, ItemID: n.ItemID}
	defer func() { r.Took = time.Since(start) }()
	sec, err := p.readSecrets(s.secrets)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	m := append(sec.masker(), addressSecrets(p.url)...)
	req, err := p.request(n, sec, s.ua)
	if err != nil {
		r.Error = m.mask(err.Error())
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	c := s.strict
	if allowHTTP {
		c = s.lenient
	}
	status, body, err := do(ctx, c, req)
	if err != nil && status == 0 {
		r.Error = describe(err, s.timeout, m)
		return r
	}
	if err := answerError(p.Name, status, body, m); err != nil {
		r.Error = err.Error()
		return r
	}
	r.OK = true
	return r
}

// addressSecrets are the parts of an address that may be secret: the
// whole of it, its path (an ntfy topic, a webhook's key), its query and
// its user info.
func addressSecrets(raw string) masker {
	m := masker{raw}
	if u, err := url.Parse(raw); err == nil {
		m = append(m, strings.Trim(u.EscapedPath(), "/"), strings.Trim(u.Path, "/"), u.RawQuery)
		if u.User != nil {
			m = append(m, u.User.String())
			if pw, ok := u.User.Password(); ok {
				m = append(m, pw)
			}
		}
	}
	return m
}

// Send sends n through every provider of settings at once and returns
// when all have answered (or timed out), one Result per provider in the
// order ntfy, pushover, webhook. It is what tuios notify test runs.
func Send(ctx context.Context, settings config.PushSettings, n Notification, opt SendOptions) []Result {
	s := newSender(opt)
	ps := Providers(settings)
	out := make([]Result, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = s.send(ctx, p, n, settings.AllowHTTPRedirects)
		}()
	}
	wg.Wait()
	return out
}
