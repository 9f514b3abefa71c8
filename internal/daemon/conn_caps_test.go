package daemon

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// holdConns is the helper's hold mode, run in a pane: it opens
// $TUIOS_HOLD connections, each saying hello and then holding a long
// wait, and prints how many were served and how many refused; then it
// keeps them until the pane closes.
func holdConns(sock string) {
	n, _ := strconv.Atoi(os.Getenv("TUIOS_HOLD"))
	held, refused := 0, 0
	var keep []net.Conn
	for range n {
		c, err := net.Dial("unix", sock)
		if err != nil {
			refused++
			continue
		}
		c.SetDeadline(time.Now().Add(guard))
		fmt.Fprintln(c, `{"id":1,"verb":"hello"}`)
		l, err := bufio.NewReader(c).ReadString('\n')
		switch {
		case err == nil && strings.Contains(l, `"result"`):
			held++
			c.SetDeadline(time.Time{})
			fmt.Fprintln(c, `{"id":2,"verb":"wait-for","params":{"condition":"window-output","pattern":"never printed here","timeout":600000}}`)
			keep = append(keep, c)
		default:
			if !strings.Contains(l, proto.CodeRateLimited) {
				fmt.Printf("helper_error=%q %v\n", l, err)
			}
			refused++
			c.Close()
		}
	}
	fmt.Printf("helper_result=held:%d:refused:%d\n", held, refused)
	time.Sleep(time.Hour)
	_ = keep
}

// Panes that flood the control socket together take at most the panes'
// share, each pane at most its own cap, and the person's share stays
// free: the person still opens every connection of it, while the panes
// hold all they may. Caps made small here (64 in all, 16 kept for the
// person, 20 per pane); the daemon's are 4096, 256 and 512.
func TestPanesCannotTakeThePersonsShare(t *testing.T) {
	t.Parallel()
	lim := connLimits{maxConns: 64, personShare: 16, perPane: 20, maxAdmitting: 4}
	_, sock := cappedServer(t, lim)
	r := dialRPC(t, sock) // the person's first connection
	r.must("new-session", map[string]any{"name": "f"})
	exe, _ := os.Executable()
	total := 0
	for i := range 4 {
		name := "flood" + strconv.Itoa(i)
		r.must("new-window", map[string]any{"session": "f", "name": name, "no_focus": true,
			"argv": []string{"sh", "-c", `TUIOS_NONCE_HELPER=hold TUIOS_HOLD=30 TUIOS_NONCE_SOCK="$1" "$2" -test.run='^TestNonceHelper$'`, "sh", sock, exe}})
		r.must("wait-for", map[string]any{"session": "f", "window": name, "condition": "window-output", "pattern": "helper_result=", "timeout": 30000})
		screen := str(r.must("capture-pane", map[string]any{"session": "f", "window": name})["content"])
		m := regexp.MustCompile(`helper_result=held:(\d+):refused:(\d+)`).FindStringSubmatch(screen)
		if m == nil {
			t.Fatalf("pane %d:\n%s", i, screen)
		}
		held, _ := strconv.Atoi(m[1])
		if held > lim.perPane {
			t.Fatalf("pane %d holds %d connections, over its cap of %d", i, held, lim.perPane)
		}
		t.Logf("pane %d: %s", i, m[0])
		total += held
	}
	if inside := lim.maxConns - lim.personShare; total != inside {
		t.Fatalf("the panes hold %d connections together, want their whole share, %d", total, inside)
	}
	// The person's share: every slot of it opens and answers (the first
	// connection above holds one).
	for i := range lim.personShare - 1 {
		c := dialRPC(t, sock)
		if res, err := c.call("list-sessions", nil); err != nil || res == nil {
			t.Fatalf("the person's connection %d: %v", i+2, err)
		}
		defer c.c.Close()
	}
	// And past the overall cap, the person is told so.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(guard))
	if l, _ := bufio.NewReader(c).ReadString('\n'); !strings.Contains(l, proto.CodeRateLimited) {
		t.Fatalf("a connection over the overall cap: %q", l)
	}
	if res, err := r.call("list-sessions", nil); err != nil || res == nil {
		t.Fatalf("the person's first connection still answers: %v", err)
	}
}

// The herdr socket's overall cap holds whoever connects (caps made small
// here: 6 in all, 10 per pane or process; the daemon's are 1024 and 64),
// and frees as connections close.
func TestHerdrOverallCap(t *testing.T) {
	t.Parallel()
	srv, _ := testServerWith(t, nil, func(s *Server) {
		s.ownChildrenOutside = true
		s.herdr.limits = herdrLimits{maxConns: 6, perKey: 10, streamsPer: 2, maxAdmitting: 2}
	})
	path := srv.herdr.path
	srv.herdr.deadline.Store(int64(guard)) // idle connections are held, not timed out
	var held []net.Conn
	for range 6 {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	eventually(t, "the six are counted", func() bool {
		srv.herdr.mu.Lock()
		defer srv.herdr.mu.Unlock()
		return srv.herdr.conns[herdrKey(placement{}, os.Getpid())] == 6
	})
	if got := herdrSend(path, `{"id":"x","method":"ping"}`); errCodeOf(got) != proto.CodeRateLimited || !strings.Contains(got, "6 connections") {
		t.Fatalf("the seventh: %s", got)
	}
	for _, c := range held {
		c.Close()
	}
	eventually(t, "the cap frees", func() bool { return strings.Contains(herdrSend(path, `{"id":"1","method":"ping"}`), "pong") })
}
