package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/tuios/tuios/internal/config"
)

// The human nonces: what attach and attach-presence hand the person's
// client, and what the person check reads (isPerson, attention.go). They
// decide who the person is, so they are the core's: a feature asks
// through core.Host (IsPerson, Person, Answerer: host_prompts.go) and never sees them.

// RespondFromShellEnv is the environment variable, read once when the
// daemon starts, that does what `[daemon] respond_from_shell = true` in
// the config file does (1, true, yes or on): a shell outside every pane
// may use respond without an attached client's nonce. Either is read only
// at start; nothing a client sends can change it.
const RespondFromShellEnv = "TUIOS_RESPOND_FROM_SHELL"

// respondFromShell is respond_from_shell as the daemon starts with it:
// the config file's, or the environment's word.
func respondFromShell(f *config.File, getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(RespondFromShellEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return f.Daemon.RespondFromShell
}

// humanNonces are the nonces issued to attached clients, one per
// connection. mu guards the maps; it is a leaf, never held across I/O.
type humanNonces struct {
	done <-chan struct{} // the daemon stops

	mu     sync.Mutex
	nonces map[string]nonceHolder
	byConn map[*conn]string
}

// nonceHolder is the connection a nonce was issued on and its peer pid:
// the nonce is good on that connection, or on another connection from the
// same process while the first stays open.
type nonceHolder struct {
	cn  *conn
	pid int
}

func newHumanNonces(done <-chan struct{}) *humanNonces {
	return &humanNonces{done: done, nonces: map[string]nonceHolder{}, byConn: map[*conn]string{}}
}

// issue makes a fresh nonce for cn, replacing the one it held; the nonce
// dies with the connection.
func (hn *humanNonces) issue(cn *conn) string {
	var b [24]byte
	rand.Read(b[:])
	n := hex.EncodeToString(b[:])
	hn.mu.Lock()
	old, had := hn.byConn[cn]
	if had {
		delete(hn.nonces, old)
	}
	hn.nonces[n] = nonceHolder{cn: cn, pid: cn.peer}
	hn.byConn[cn] = n
	hn.mu.Unlock()
	if !had {
		go func() {
			select {
			case <-cn.closed:
			case <-hn.done:
			}
			hn.forget(cn)
		}()
	}
	return n
}

// forget drops the nonce cn held: its connection ended.
func (hn *humanNonces) forget(cn *conn) {
	hn.mu.Lock()
	defer hn.mu.Unlock()
	if cur, ok := hn.byConn[cn]; ok {
		delete(hn.nonces, cur)
		delete(hn.byConn, cn)
	}
}

// valid: the nonce is live and cn is its connection, or another
// connection from the process that holds it.
func (hn *humanNonces) valid(cn *conn, nonce string) bool {
	if nonce == "" {
		return false
	}
	hn.mu.Lock()
	h, ok := hn.nonces[nonce]
	hn.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-h.cn.closed:
		return false
	default:
	}
	return h.cn == cn || (cn.peer > 1 && h.pid == cn.peer)
}

// heldByClient reports whether cn is, or comes from the process of, an
// attached client's connection holding a live human nonce.
func (hn *humanNonces) heldByClient(cn *conn) bool {
	hn.mu.Lock()
	defer hn.mu.Unlock()
	for _, h := range hn.nonces {
		if h.cn == cn || cn.peer > 1 && h.pid == cn.peer {
			select {
			case <-h.cn.closed:
			default:
				return true
			}
		}
	}
	return false
}
