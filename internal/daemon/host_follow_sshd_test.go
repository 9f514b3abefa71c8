package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/testsshd"
)

// Two daemons and a real sshd: a far pane goes needs_input and the near
// Inbox shows far:ID with host far; sshd goes away (the link drops, the
// far daemon lives on) and the item turns stale with seen_at, listed and
// not counted; sshd comes back and the item is fresh again with the same
// id. Then the far daemon itself is killed: stale again; a new far daemon
// has none of the old items, so they close, and its new ones arrive.
func TestFollowMirrorsAFarPaneThroughTheLink(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	fr := dialRPC(t, w.far.Socket())
	win := catPane(t, fr, "api")
	catPane(t, fr, "quiet") // no agent in it: listed by list-sessions only
	w.startNear(w.hostTable("far"), nil)
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "far", "up")
	// Subscribed first, so the item below comes by the far event stream.
	eventually(t, "following far live", func() bool { return hostRows(t, r)["far"]["events"] == "live" })
	// The rail's row for far lists its sessions (host_follow_sessions.go):
	// those there when the follow began, then a new one by its event.
	eventually(t, "far's sessions in the layout", func() bool { return railSessions(w.near, "far") == "api quiet" })
	catPane(t, fr, "later")
	eventually(t, "far's new session in the layout", func() bool { return railSessions(w.near, "far") == "api later quiet" })

	report(t, fr, win, "needs_input", "approval", "approve Bash: make deploy")
	farList := waitList(t, fr, nil, "the far approval", func(l attList) bool { return l.Total == 1 })
	id := "far:" + farList.Items[0].ID

	var l hostAttList
	eventually(t, "the far item mirrored near", func() bool {
		l = hostList(t, r, nil)
		_, ok := l.item(id)
		return ok
	})
	it, _ := l.item(id)
	if it.Host != "far" || it.Kind != "approval" || it.Session != "api" || it.Window != win || it.Summary != "approve Bash: make deploy" || it.Stale {
		t.Fatalf("mirrored item: %+v", it)
	}
	if l.Total != 1 || l.Counts["approval"] != 1 || len(l.Hosts) != 1 || l.Hosts[0].Events != "live" {
		t.Fatalf("near listing: %+v", l)
	}
	// Not mirrored back: the far daemon's own listing is its one item.
	if fl := hostList(t, fr, nil); len(fl.Items) != 1 || fl.Items[0].Host != "" {
		t.Fatalf("far listing after the near one followed it: %+v", fl)
	}
	// Events flow: the far pane's answer closes the near item.
	report(t, fr, win, "working", "", "")
	eventually(t, "the near item closed with the far one", func() bool { _, ok := hostList(t, r, nil).item(id); return !ok })
	report(t, fr, win, "needs_input", "", "which retry policy?")
	farList = waitList(t, fr, nil, "the far question", func(l attList) bool { return l.Total == 1 })
	id = "far:" + farList.Items[0].ID
	eventually(t, "the far question mirrored", func() bool { _, ok := hostList(t, r, nil).item(id); return ok })

	// The link drops; the far daemon lives on.
	w.sshd.Stop()
	eventually(t, "the far item stale", func() bool {
		l = hostList(t, r, nil)
		it, ok := l.item(id)
		return ok && it.Stale
	})
	it, _ = l.item(id)
	if it.SeenAt == 0 || l.Total != 0 || l.Counts["question"] != 0 || len(l.Hosts) != 1 || !l.Hosts[0].Stale || l.Hosts[0].SeenAt == 0 {
		t.Fatalf("while the link is down: %+v", l)
	}
	w.sshd.Restart()
	eventually(t, "the far item fresh again", func() bool {
		l = hostList(t, r, nil)
		it, ok := l.item(id)
		return ok && !it.Stale
	})
	if l.Total != 1 || l.Counts["question"] != 1 || l.Hosts[0].Stale {
		t.Fatalf("back up: %+v", l)
	}

	// The far daemon is killed: stale; a new one has other items.
	w.far.Close()
	eventually(t, "stale after the far daemon died", func() bool { it, ok := hostList(t, r, nil).item(id); return ok && it.Stale })
	w.startFar()
	fr = dialRPC(t, w.far.Socket())
	win = catPane(t, fr, "web")
	report(t, fr, win, "errored", "", "boom")
	farList = waitList(t, fr, nil, "the new far item", func(l attList) bool {
		if l.Total > 1 { // seen once under load; says what else was there
			t.Logf("far list %+v", l)
		}
		return l.Total == 1
	})
	newID := "far:" + farList.Items[0].ID
	eventually(t, "the new far daemon followed", func() bool {
		l = hostList(t, r, nil)
		_, old := l.item(id)
		it, ok := l.item(newID)
		return !old && ok && !it.Stale && it.Session == "web"
	})
}

// olderFar stands in front of a real far daemon's stream as a tuios
// build from before subscribe took after_seq would: it refuses that
// subscribe (invalid_params, as strict params decoding does) and passes
// every other line through. Such a build cannot exist in this tree, so
// its one difference is put in front of the real thing.
type olderFar struct {
	rw   io.ReadWriteCloser
	pr   *io.PipeReader
	pw   *io.PipeWriter
	mu   sync.Mutex
	subs *atomic.Int32
}

func newOlderFar(rw io.ReadWriteCloser, subs *atomic.Int32) *olderFar {
	pr, pw := io.Pipe()
	o := &olderFar{rw: rw, pr: pr, pw: pw, subs: subs}
	go func() {
		r := bufio.NewReader(rw)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			o.mu.Lock()
			pw.Write(line)
			o.mu.Unlock()
		}
	}()
	return o
}

func (o *olderFar) Read(p []byte) (int, error) { return o.pr.Read(p) }

func (o *olderFar) Write(p []byte) (int, error) {
	var rq struct {
		ID   json.RawMessage `json:"id"`
		Verb string          `json:"verb"`
	}
	if json.Unmarshal(p, &rq) == nil && rq.Verb == "subscribe" {
		o.subs.Add(1)
		b, _ := json.Marshal(map[string]any{"id": rq.ID, "error": map[string]any{"code": "invalid_params", "message": "unknown param after_seq"}})
		// A pipe write waits for its reader, who reads only once this
		// write returned: the answer goes from a goroutine of its own.
		go func() {
			o.mu.Lock()
			defer o.mu.Unlock()
			o.pw.Write(append(b, '\n'))
		}()
		return len(p), nil
	}
	return o.rw.Write(p)
}

func (o *olderFar) Close() error {
	o.pr.Close()
	return o.rw.Close()
}

// A host whose tuios cannot subscribe from a seq is listed again on a
// timer instead (events: polling), often while a client's rail shows it,
// and its items still arrive; removing the host closes them
// (host_removed).
func TestFollowPollsAHostTooOldToSubscribe(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	fr := dialRPC(t, w.far.Socket())
	win := catPane(t, fr, "api")
	w.startNear("", nil)
	var subs atomic.Int32
	w.near.follow.Tune(func(k *links.Knobs) {
		real := k.Open
		k.Open = func(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error) {
			rw, err := real(ctx, host)
			if err != nil {
				return nil, err
			}
			return newOlderFar(rw, &subs), nil
		}
		// Only a client's rail makes the host listed often: without one a
		// listing an hour apart would miss every change below.
		k.PollEvery, k.PollRail = time.Hour, 100*time.Millisecond
	})

	r := dialRPC(t, w.sock)
	w.writeConfig(w.hostTable("far"))
	r.must("apply-config", map[string]any{})
	waitStatus(t, r, "far", "up")
	eventually(t, "polling", func() bool { return hostRows(t, r)["far"]["events"] == "polling" })
	if row := hostRows(t, r)["far"]; !strings.Contains(str(row["events_note"]), "cannot subscribe") {
		t.Fatalf("events_note: %v", row)
	}

	catPane(t, r, "here")
	st, _ := attachStreamT(t, w.sock, map[string]any{"session": "here", "cols": 100, "rows": 30})
	defer st.c.Close()
	report(t, fr, win, "needs_input", "", "which retry policy?")
	farList := waitList(t, fr, nil, "the far question", func(l attList) bool { return l.Total == 1 })
	id := "far:" + farList.Items[0].ID
	eventually(t, "the far question polled in", func() bool { _, ok := hostList(t, r, nil).item(id); return ok })
	report(t, fr, win, "working", "", "")
	eventually(t, "the far question polled out", func() bool { _, ok := hostList(t, r, nil).item(id); return !ok })
	if n := subs.Load(); n != 1 {
		t.Errorf("%d subscribes tried; a host found too old is polled, not asked again", n)
	}

	report(t, fr, win, "errored", "", "boom")
	farList = waitList(t, fr, nil, "the far error", func(l attList) bool { return l.Total == 1 })
	id = "far:" + farList.Items[0].ID
	eventually(t, "the far error polled in", func() bool { _, ok := hostList(t, r, nil).item(id); return ok })
	sub := dialRPC(t, w.sock)
	sub.must("subscribe", map[string]any{"types": []string{"attention"}})
	w.writeConfig("")
	r.must("apply-config", map[string]any{})
	// A poll already under way may still update the item before the
	// removal closes it.
	ev := sub.nextAttention()
	for n := 0; ev.Op == "update" && ev.Item.ID == id && n < 20; n++ {
		ev = sub.nextAttention()
	}
	if ev.Op != "close" || ev.Item.ID != id || ev.Item.Closed != "host_removed" {
		t.Fatalf("host removed: %+v", ev)
	}
	if _, err := r.call("list-attention", map[string]any{"host": "far"}); err == nil || err.Code != codeUnknownHost {
		t.Fatalf("a removed host is still listed: %+v", err)
	}
}

// railSessions are the session names s's layout carries for host, as
// the rail lists them.
func railSessions(s *Server, host string) string {
	for _, h := range s.follow.AttachHosts() {
		if h.Host == host {
			return strings.Join(h.Sessions, " ")
		}
	}
	return ""
}

// A live follow lists the host's sessions again now and then (once a
// minute; the test shortens it): a session whose created event was lost
// comes into the rail, and one whose closed event was lost leaves it.
func TestFollowListsFarSessionsAgainAsABackstop(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	fr := dialRPC(t, w.far.Socket())
	catPane(t, fr, "api")
	w.startNear("", nil)
	f := w.near.follow
	f.Tune(func(k *links.Knobs) { k.SessionsEvery = 100 * time.Millisecond })
	r := dialRPC(t, w.sock)
	w.writeConfig(w.hostTable("far"))
	r.must("apply-config", map[string]any{})
	waitStatus(t, r, "far", "up")
	eventually(t, "following far live", func() bool { return hostRows(t, r)["far"]["events"] == "live" })
	eventually(t, "far's session in the rail", func() bool { return railSessions(w.near, "far") == "api" })

	// As if session-created of api and session-closed of ghost were lost.
	f.CachedSessions("far", func(sessions map[string]struct{}) {
		delete(sessions, "api")
		sessions["ghost"] = struct{}{}
	})
	eventually(t, "the rail listed again", func() bool { return railSessions(w.near, "far") == "api" })
}
