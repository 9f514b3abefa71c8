package pushtest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Proxy is an HTTP proxy that tunnels CONNECT requests for ProxiedHost
// (any port) to 127.0.0.1 on that port, and refuses every other host. Set
// HTTPS_PROXY to its URL.
type Proxy struct {
	*httptest.Server
	mu      sync.Mutex
	tunnels []string // the host:port of each CONNECT
}

// NewProxy starts a Proxy on 127.0.0.1.
func NewProxy() *Proxy {
	p := &Proxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, port, err := net.SplitHostPort(r.Host)
		if r.Method != http.MethodConnect || err != nil || host != ProxiedHost {
			http.Error(w, "this proxy tunnels only to "+ProxiedHost, http.StatusForbidden)
			return
		}
		up, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", port))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		p.mu.Lock()
		p.tunnels = append(p.tunnels, r.Host)
		p.mu.Unlock()
		hj, ok := w.(http.Hijacker)
		if !ok {
			up.Close()
			http.Error(w, "no hijack", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
		down, buf, err := hj.Hijack()
		if err != nil {
			up.Close()
			return
		}
		// Either side ending ends the tunnel.
		var once sync.Once
		end := func() { once.Do(func() { up.Close(); down.Close() }) }
		go func() { io.Copy(up, buf); end() }()
		go func() { io.Copy(down, up); end() }()
	}))
	return p
}

// Tunnels are the host:port of each tunnel made so far.
func (p *Proxy) Tunnels() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tunnels...)
}
