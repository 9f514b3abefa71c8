package push

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// Limits of one send.
const (
	// SendTimeout bounds one send, redirects and the answer included.
	SendTimeout = 10 * time.Second
	// MaxRedirects is how many redirects a send follows.
	MaxRedirects = 3
	// maxAnswer bounds how much of a provider's answer is read.
	maxAnswer = 64 << 10
)

// SendError is a send that failed, in words safe to show: no secret, no
// address beyond its host.
type SendError struct {
	Msg string
	// Status is the HTTP status the server answered, 0 when none came.
	Status int
}

func (e *SendError) Error() string { return e.Msg }

// redirectError is a redirect the client refused.
type redirectError struct{ why string }

func (e *redirectError) Error() string { return e.why }

// clientOptions shape the HTTP client.
type clientOptions struct {
	allowHTTP bool
	roots     *x509.CertPool // nil: the system's store
	timeout   time.Duration
}

// newClient is the client every provider shares: the environment's
// proxies, the system's certificates (or roots), a whole-send timeout and
// the redirect rules.
func newClient(o clientOptions) *http.Client {
	dialer := &net.Dialer{Timeout: o.timeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: o.roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   o.timeout,
		ResponseHeaderTimeout: o.timeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          8,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{Transport: tr, Timeout: o.timeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		return checkRedirect(req, via, o.allowHTTP)
	}}
}

// checkRedirect follows a redirect only when it keeps the POST and its
// body (307, 308), stays on the first request's host, goes to https (or
// http with allow_http_redirects), and is at most the third.
func checkRedirect(req *http.Request, via []*http.Request, allowHTTP bool) error {
	if len(via) > MaxRedirects {
		return &redirectError{fmt.Sprintf("the server redirected more than %d times", MaxRedirects)}
	}
	first := via[0].URL
	if !strings.EqualFold(req.URL.Hostname(), first.Hostname()) {
		return &redirectError{"the server redirected to another host, which is never followed (a notification goes only where the config says)"}
	}
	if req.URL.Scheme != "https" && !allowHTTP {
		return &redirectError{"the server redirected to plain http, which is not followed unless notify.allow_http_redirects = true"}
	}
	if r := req.Response; r != nil && r.StatusCode != http.StatusTemporaryRedirect && r.StatusCode != http.StatusPermanentRedirect {
		hint := "put the address it redirects to in the config"
		if first.Scheme == "http" && req.URL.Scheme == "https" {
			hint = "write the address with https://"
		}
		return &redirectError{fmt.Sprintf("the server redirected with %s, which would drop the message: %s", statusText(r.StatusCode), hint)}
	}
	return nil
}

// do sends one request and reads the answer: the status and at most
// maxAnswer bytes of the body.
func do(ctx context.Context, c *http.Client, req *http.Request) (int, []byte, error) {
	resp, err := c.Do(req.WithContext(ctx))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil && !errors.Is(err, io.EOF) {
		return resp.StatusCode, body, err
	}
	return resp.StatusCode, body, nil
}

// describe puts a failed request in words safe to show: it never
// repeats the address (Go's errors quote the whole URL, topic and all).
func describe(err error, timeout time.Duration, m masker) string {
	var re *redirectError
	if errors.As(err, &re) {
		return re.why
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message holds the address: never shown
	}
	if errors.Is(err, context.Canceled) {
		return "cancelled: tuios is stopping"
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("no answer within %v", timeout)
	}
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	var cv *tls.CertificateVerificationError
	switch {
	case errors.As(err, &ua):
		return "the server's certificate is not signed by an authority this machine trusts (the system's store, SSL_CERT_FILE or SSL_CERT_DIR)"
	case errors.As(err, &he):
		return "the server's certificate is for another name (" + clean(m.mask(he.Error()), 200) + ")"
	case errors.As(err, &ci):
		return "the server's certificate is not valid (" + clean(m.mask(ci.Error()), 200) + ")"
	case errors.As(err, &cv):
		return "the server's certificate is not trusted (" + clean(m.mask(cv.Err.Error()), 200) + ")"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "the host name does not resolve (" + clean(dns.Err, 100) + ")"
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the server refused the connection"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the server closed the connection before it answered"
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return "the network cannot reach the server"
	}
	if strings.Contains(err.Error(), "HTTP response to HTTPS client") {
		return "the server answers in plain http: the address must start with http, not https (and the token then crosses in the clear)"
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return "the connection failed (" + clean(m.mask(oe.Err.Error()), 200) + ")"
	}
	return "the request failed (" + clean(m.mask(err.Error()), 200) + ")"
}
