package daemon

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// A relay is a real process in a real pane that forwards connections
// from a socket of the test's to the daemon's sockets: every call made
// through it reaches the daemon from a process in that pane, so the
// daemon places it there by its own means (the peer's pid and its
// ancestry), as it would place an agent's CLI call.

// TestGrantsRelayHelper is not a test: run as a pane's program by the
// grants tests, it relays TUIOS_RELAY's "LISTEN=TARGET" pairs (comma
// separated) until the pane closes.
func TestGrantsRelayHelper(t *testing.T) {
	t.Parallel()
	spec := os.Getenv("TUIOS_RELAY")
	if spec == "" {
		t.Skip("run by the grants tests in a pane")
	}
	for _, pair := range strings.Split(spec, ",") {
		listen, target, _ := strings.Cut(pair, "=")
		ln, err := net.Listen("unix", listen)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					d, err := net.Dial("unix", target)
					if err != nil {
						return
					}
					defer d.Close()
					done := make(chan struct{}, 2)
					go func() { io.Copy(d, c); d.(*net.UnixConn).CloseWrite(); done <- struct{}{} }()
					go func() { io.Copy(c, d); done <- struct{}{} }()
					<-done
					<-done
				}()
			}
		}()
	}
	os.WriteFile(os.Getenv("TUIOS_RELAY_READY"), nil, 0o600)
	select {}
}

// relay is one pane whose process relays the test's calls.
type relay struct {
	t      *testing.T
	id     string // the pane's window id
	name   string
	ctl    string // relays to the control socket
	herdrS string // relays to the herdr socket
}

// relayPane opens a window named name in session holding grants (""
// leaves the default), its process a relay, and waits until it relays.
func relayPane(t *testing.T, person *rpc, sock, session, name, grants string) *relay {
	t.Helper()
	dir, err := os.MkdirTemp("", "rl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	rl := &relay{t: t, name: name, ctl: filepath.Join(dir, "c"), herdrS: filepath.Join(dir, "h")}
	ready := filepath.Join(dir, "ready")
	spec := rl.ctl + "=" + sock + "," + rl.herdrS + "=" + sock + ".herdr"
	params := map[string]any{"session": session, "name": name, "no_focus": true,
		"argv": []string{"env", "TUIOS_RELAY=" + spec, "TUIOS_RELAY_READY=" + ready, os.Args[0], "-test.run=^TestGrantsRelayHelper$"}}
	if grants != "" {
		params["grants"] = grants
	}
	rl.id = str(person.must("new-window", params)["window_id"])
	eventually(t, "the relay in "+name+" listens", func() bool { _, err := os.Stat(ready); return err == nil })
	return rl
}

// rpc is a control connection from inside the relay's pane.
func (rl *relay) rpc() *rpc {
	rl.t.Helper()
	return dialRPC(rl.t, rl.ctl)
}

// herdr sends one herdr request from inside the pane and returns its
// result or error object.
func (rl *relay) herdr(method string, params map[string]any) (result, herr map[string]any) {
	rl.t.Helper()
	c, err := net.Dial("unix", rl.herdrS)
	if err != nil {
		rl.t.Fatalf("herdr relay: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(guard))
	b, _ := json.Marshal(map[string]any{"id": "1", "method": method, "params": params})
	c.Write(append(b, '\n'))
	line, err := proto.ReadLine(bufio.NewReader(c), proto.MaxLine)
	if err != nil {
		rl.t.Fatalf("herdr %s: no answer: %v", method, err)
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		rl.t.Fatalf("herdr %s: %q", method, line)
	}
	return resp.Result, resp.Error
}

// relays opens one relay pane per grants list ("none" gives none).
func relays(t *testing.T, person *rpc, sock, session string, grants []string) map[string]*relay {
	t.Helper()
	out := map[string]*relay{}
	for _, g := range grants {
		out[g] = relayPane(t, person, sock, session, "c-"+strings.ReplaceAll(g, ",", "-"), g)
	}
	return out
}
