package daemon

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/config"
)

// A host that refuses connections is redialled 1 s, 2 s, 4 s … after each
// failed attempt, never more than 30 s apart, on the daemon's clock; the
// row says when the next attempt starts, and its status (and since) stays
// put while it fails the same way.
func TestLinksRedialBackoffSchedule(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now: every dial is refused at once

	home := t.TempDir()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	f := &config.File{Hosts: map[string]config.Host{"down": {Addr: "root@127.0.0.1", SSHOptions: []string{fmt.Sprintf("-p %d", port)}}}}
	_, sock := serverWith(t, func(o *Options) {
		o.Tracker.Clock = clk
		o.Config = f
		o.Getenv = func(k string) string { return map[string]string{"HOME": home, "USER": "root"}[k] }
	})
	r := dialRPC(t, sock)
	var since any
	for i, d := range []time.Duration{1, 2, 4, 8, 16, 30, 30} {
		d *= time.Second
		attempt := i + 1
		var row map[string]any
		eventually(t, fmt.Sprintf("attempt %d failed", attempt), func() bool {
			row = hostRows(t, r)["down"]
			return row["attempts"] == float64(attempt)
		})
		wantAt := clk.Now().Add(d).UTC().Format(time.RFC3339Nano)
		if row["status"] != "unreachable" || row["reason_code"] != "connect" || row["retry_at"] != wantAt ||
			!strings.Contains(str(row["reason"]), "connection refused") || !strings.Contains(str(row["hint"]), "tuios hosts test down") {
			t.Fatalf("after attempt %d: want retry_at %s, row %v", attempt, wantAt, row)
		}
		if since == nil {
			since = row["since"]
		} else if row["since"] != since {
			t.Fatalf("since moved while the state stayed: %v then %v", since, row["since"])
		}
		clk.Advance(d)
	}
}

// apply-config from a program inside a pane is refused (a pane must not
// change which machines this daemon links to); from outside it applies.
func TestLinksApplyConfigRefusedInsideAPane(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	_, sock := serverWith(t, func(o *Options) {
		o.Getenv = func(k string) string { return map[string]string{"HOME": home}[k] }
	})
	r := dialRPC(t, sock)
	script := "TUIOS_LINKS_HELPER_SOCK=" + sock + " " + os.Args[0] + " -test.run=^TestLinksHelperApplyConfigClient$ 2>&1; exec cat"
	r.must("new-session", map[string]any{"name": "inpane", "argv": []string{"/bin/sh", "-c", script}})
	eventually(t, "the pane's apply-config answered", func() bool {
		return strings.Contains(str(r.must("capture-pane", map[string]any{"session": "inpane"})["content"]), "helper-answer:")
	})
	screen := str(r.must("capture-pane", map[string]any{"session": "inpane"})["content"])
	if !strings.Contains(screen, `"code":"forbidden"`) || !strings.Contains(screen, "outside") {
		t.Fatalf("inside a pane:\n%s", screen)
	}
	if res := r.must("apply-config", map[string]any{}); res["type"] != "config_applied" || res["path"] != home+"/.config/tuios/config.toml" {
		t.Fatalf("outside: %v", res)
	}
}

// TestLinksHelperApplyConfigClient is the program the pane above runs
// (this test binary again): it calls apply-config and prints the answer.
func TestLinksHelperApplyConfigClient(t *testing.T) {
	t.Parallel()
	sock := os.Getenv("TUIOS_LINKS_HELPER_SOCK")
	if sock == "" {
		t.Skip("run by TestLinksApplyConfigRefusedInsideAPane inside a pane")
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(`{"id":1,"verb":"apply-config"}` + "\n"))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("helper-answer:", strings.TrimSpace(line))
}
