//go:build linux

package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/sock"
)

// keyWorld is a real daemon of its own and the client's two connections
// to it, made as Run makes them, with no terminal: the test types through
// conns.Call as the model does, and reads the panes with capture-pane.
type keyWorld struct {
	t       *testing.T
	c       *conns
	ctl     *client.Client
	session string
	mu      sync.Mutex
	errs    []error
}

func newKeyWorld(t *testing.T) *keyWorld {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := e2e.Binary(t)
	ew := e2e.NewWorld(t, bin)
	env := map[string]string{}
	for _, v := range ew.Vars {
		k, val, _ := strings.Cut(v, "=")
		env[k] = val
	}
	run := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = ew.Vars
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tuios %v: %v\n%s", args, err, out)
		}
	}
	run("new", "--detach", "k")
	t.Cleanup(func() {
		cmd := exec.Command(bin, "kill-server")
		cmd.Env = ew.Vars
		cmd.Run()
	})
	opt := Options{Socket: sock.Path(func(k string) string { return env[k] }), noAutostart: true}
	ctl, err := client.Dial(client.Options{Socket: opt.Socket})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close() })
	copt := opt
	copt.callLine = true
	calls, err := dialTo(copt, "")
	if err != nil {
		t.Fatal(err)
	}
	st, _, name, quiet, err := attachStream(opt, "", "k", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	if !quiet {
		t.Fatal("this daemon takes no quiet requests")
	}
	kw := &keyWorld{t: t, ctl: ctl, session: name}
	kw.c = &conns{opt: opt, calls: newCallLine(calls, quiet), stream: st, session: name, cols: 100, rows: 30}
	msgs := make(chan tea.Msg, 4096)
	kw.c.start(func(m tea.Msg) {
		if r, ok := m.(replyMsg); ok && r.err != nil {
			kw.mu.Lock()
			kw.errs = append(kw.errs, r.err)
			kw.mu.Unlock()
		}
		select {
		case msgs <- m:
		default:
		}
	})
	go func() {
		for range msgs {
		}
	}()
	t.Cleanup(kw.c.close)
	return kw
}

// call is a call on the test's own connection.
func (kw *keyWorld) call(verb string, params map[string]any) map[string]any {
	kw.t.Helper()
	var res map[string]any
	if err := kw.ctl.Call(verb, params, &res); err != nil {
		kw.t.Fatalf("%s %v: %v", verb, params, err)
	}
	return res
}

// typeText types s into window as the model does, one key per call.
func (kw *keyWorld) typeText(window, s string) {
	for _, r := range s {
		kw.c.Call("send-text", proto.SendTextParams{Session: kw.session, Window: window, Text: string(r)}, "")
	}
}

func (kw *keyWorld) screen(window string) string {
	return fmt.Sprint(kw.call("capture-pane", map[string]any{"session": kw.session, "window": window})["content"])
}

// waitScreen waits until window's screen matches re.
func (kw *keyWorld) waitScreen(window, re string) string {
	kw.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := kw.screen(window)
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			kw.t.Fatalf("timed out waiting for %q in %s:\n%s", re, window[:8], s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// held is the window whose input the client holds, "" for none.
func (kw *keyWorld) held() string {
	kw.c.mu.Lock()
	defer kw.c.mu.Unlock()
	if h := kw.c.keys.held; h != nil {
		return h.window
	}
	return ""
}

func (kw *keyWorld) waitHeld(window string) {
	kw.t.Helper()
	kw.until(func() bool { return kw.held() == window }, func() string {
		return fmt.Sprintf("the client never held %q's input (holds %q)", window, kw.held())
	})
}

// until polls cond until it holds, failing with what() after 20 s.
func (kw *keyWorld) until(cond func() bool, what func() string) {
	kw.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			kw.t.Fatal(what())
		}
	}
}

func (kw *keyWorld) focused() string {
	kw.t.Helper()
	var res struct {
		Windows []struct {
			ID      string `json:"window_id"`
			Focused bool   `json:"focused"`
		} `json:"windows"`
	}
	if err := kw.ctl.Call("list-windows", map[string]any{"session": kw.session}, &res); err != nil {
		kw.t.Fatal(err)
	}
	for _, w := range res.Windows {
		if w.Focused {
			return w.ID
		}
	}
	kw.t.Fatal("no focused window")
	return ""
}

// ptyFDs counts this process's descriptors on /dev/ptmx: the held input.
func ptyFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == "/dev/ptmx" {
			n++
		}
	}
	return n
}

// Keys reach the focused pane in order whether they go over the socket
// or straight to the pane: the first key goes over the socket and asks
// for the input, the rest are written to the pane; after the focus moves
// the input is let go, the new pane's keys go over the socket first and
// its input is taken in turn, and the old pane gets nothing more. With
// the fast path off the keys go over the socket only, as they always did.
func TestKeysStraightToThePane(t *testing.T) {
	kw := newKeyWorld(t)
	a := kw.focused()
	kw.waitScreen(a, `\$`)
	kw.typeText(a, "echo one")
	kw.waitHeld(a)
	kw.typeText(a, "-two-three\n")
	kw.waitScreen(a, `(?m)^one-two-three$`)
	if kw.held() != a {
		t.Fatal("the input was let go while the pane kept the focus")
	}

	kw.call("new-window", map[string]any{"session": kw.session, "name": "b"})
	b := kw.focused()
	kw.waitScreen(b, `\$`)
	kw.until(func() bool { return kw.held() != a }, // the layout with b focused lets a's input go
		func() string { return "the input of a pane that lost the focus was kept" })
	kw.typeText(b, "echo four")
	kw.waitHeld(b)
	kw.typeText(b, "-five\n")
	kw.waitScreen(b, `(?m)^four-five$`)
	if s := kw.screen(a); strings.Contains(s, "four") {
		t.Fatalf("keys for the newly focused pane reached the old one:\n%s", s)
	}

	// Off: keys over the socket only, the same text in the same order.
	kw.c.mu.Lock()
	kw.c.letGo()
	kw.c.keys.off = true
	kw.c.mu.Unlock()
	kw.typeText(b, "echo six-seven\n")
	kw.waitScreen(b, `(?m)^six-seven$`)
	if kw.held() != "" || ptyFDs(t) != 0 {
		t.Fatal("with the fast path off, the client holds a pane's input")
	}
}

// A pane that cannot take more input (its program reads nothing) makes
// the client's write come short: the rest goes over the socket, the
// daemon queues it in order, the input is let go, and the keys after it
// follow over the socket; once the program reads, every byte is there,
// in order.
func TestKeysToAFullPaneKeepTheirOrder(t *testing.T) {
	kw := newKeyWorld(t)
	a := kw.focused()
	kw.waitScreen(a, `\$`)
	out := filepath.Join(t.TempDir(), "got")
	const total = 2 << 20 // more than the terminal and the daemon's queue hold together
	kw.typeText(a, "stty raw -echo; echo RAW-$((1+1)); sleep 2; head -c "+fmt.Sprint(total)+" > "+out+"; stty sane; echo DONE-$((2+2))\n")
	kw.waitHeld(a) // the line above went straight to the pane from some key on
	kw.waitScreen(a, `RAW-2`)
	// While sleep runs, nothing reads: 2 MiB do not fit in the terminal.
	var want strings.Builder
	for i := 0; want.Len() < total; i++ {
		chunk := fmt.Sprintf("<%06d>", i) + strings.Repeat(string(rune('a'+i%26)), 4088)
		want.WriteString(chunk)
		kw.c.Call("send-text", proto.SendTextParams{Session: kw.session, Window: a, Text: chunk}, "")
	}
	if kw.held() == a {
		t.Fatal("2 MiB went straight into a pane whose program reads nothing")
	}
	kw.waitScreen(a, `DONE-4`)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if w := want.String()[:total]; string(got) != w {
		i := 0
		for i < len(got) && i < len(w) && got[i] == w[i] {
			i++
		}
		t.Fatalf("the program read %d bytes, first difference at %d: got %.40q want %.40q", len(got), i, got[min(i, len(got)):], w[i:])
	}
	kw.mu.Lock()
	defer kw.mu.Unlock()
	if len(kw.errs) > 0 {
		t.Fatalf("typing failed: %v", kw.errs)
	}
}

// A pane that closes while the client holds its input: the daemon marks
// the page before the pane's processes go, the client lets the input go
// at its next key (or at the layout without the pane), and no key
// reaches another pane.
func TestKeysAfterTheHeldPaneCloses(t *testing.T) {
	kw := newKeyWorld(t)
	a := kw.focused()
	kw.call("new-window", map[string]any{"session": kw.session, "name": "b"})
	b := kw.focused()
	kw.waitScreen(b, `\$`)
	kw.typeText(b, "echo x")
	kw.waitHeld(b)
	if ptyFDs(t) != 1 {
		t.Fatalf("holding one pane's input, the client has %d terminals open", ptyFDs(t))
	}
	kw.call("close-window", map[string]any{"session": kw.session, "window": b})
	kw.typeText(b, "echo LOST\n") // typed before the layout says b is gone
	if kw.held() == b {
		t.Fatal("a key was written to the input of a closed pane")
	}
	kw.waitScreen(a, `\$`)
	kw.c.Call("send-text", proto.SendTextParams{Session: kw.session, Window: a, Text: "echo MARK\n"}, "")
	kw.waitScreen(a, `(?m)^MARK$`)
	if s := kw.screen(a); strings.Contains(s, "LOST") {
		t.Fatalf("keys for a closed pane reached another pane:\n%s", s)
	}
	kw.until(func() bool { return ptyFDs(t) == 0 || kw.held() == a },
		func() string { return "the closed pane's terminal stayed open in the client" })
}
