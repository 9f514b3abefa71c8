package daemon

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/inbox"
)

// hostAttItem is an Inbox item with the host fields.
type hostAttItem struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Host      string `json:"host"`
	Session   string `json:"session"`
	Window    string `json:"window"`
	Summary   string `json:"summary"`
	Stale     bool   `json:"stale"`
	SeenAt    int64  `json:"seen_at"`
	RequestID string `json:"request_id"`
	HeldID    string `json:"held_id"`
}

type hostAttList struct {
	Items  []hostAttItem  `json:"items"`
	Counts map[string]int `json:"counts"`
	Total  int            `json:"total"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
	Hosts  []struct {
		Host   string `json:"host"`
		Stale  bool   `json:"stale"`
		SeenAt int64  `json:"seen_at"`
		Items  int    `json:"items"`
		Events string `json:"events"`
	} `json:"hosts"`
}

func hostList(t testing.TB, r *rpc, params map[string]any) hostAttList {
	t.Helper()
	var l hostAttList
	remarshalT(t, r.must("list-attention", params), &l)
	return l
}

func (l hostAttList) item(id string) (hostAttItem, bool) {
	for _, it := range l.Items {
		if it.ID == id {
			return it, true
		}
	}
	return hostAttItem{}, false
}

// The daemon's side of the mirror, fed as the follower feeds it: the
// default listing has both machines' items, host local and host far
// split them, a stale item is listed but not counted, a dismiss of a far
// item is local and undone by u, and a far hold cannot be answered here.
func TestFollowListsMirroredItemsBesideLocalOnes(t *testing.T) {
	t.Parallel()
	s, sock := server(t)
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "needs_input", "approval", "approve Bash: make")
	waitList(t, r, nil, "the local approval", func(l attList) bool { return l.Total == 1 })
	before := hostList(t, r, nil)

	sub := dialRPC(t, sock)
	sub.must("subscribe", map[string]any{"types": []string{"attention"}, "after_seq": before.Seq, "boot_id": before.BootID})
	s.follow.Mirror(func(m *inbox.Mirror) []inbox.Event {
		return m.Sync("far", "boot-far", []inbox.Item{
			{ID: "3", Kind: inbox.KindApproval, Session: "api", Window: "w9", Summary: "approve Bash: deploy", Since: 1, HeldID: "req-far-1"},
			{ID: "4", Kind: inbox.KindErrored, Host: "gpu", Session: "x", Summary: "mirrored on far", Since: 2},
		})
	})
	ev := sub.nextAttention()
	if ev.Op != "open" || ev.Item.ID != "far:3" || ev.Item.Seq != before.Seq+1 {
		t.Fatalf("mirrored open event: %+v (listing seq was %d)", ev, before.Seq)
	}

	l := hostList(t, r, nil)
	it, ok := l.item("far:3")
	if !ok || it.Host != "far" || len(l.Items) != 2 || l.Total != 2 || l.Counts["approval"] != 2 {
		t.Fatalf("default listing: %+v", l)
	}
	if _, ok := l.item("far:4"); ok {
		t.Fatal("an item the far host mirrors was mirrored onward")
	}
	if len(l.Hosts) != 1 || l.Hosts[0].Host != "far" || l.Hosts[0].Stale || l.Hosts[0].Items != 1 {
		t.Fatalf("hosts: %+v", l.Hosts)
	}
	if l := hostList(t, r, map[string]any{"host": "local"}); len(l.Items) != 1 || l.Items[0].Host != "" || l.Hosts != nil {
		t.Fatalf("host local: %+v", l)
	}
	if l := hostList(t, r, map[string]any{"host": "far"}); len(l.Items) != 1 || l.Items[0].ID != "far:3" {
		t.Fatalf("host far: %+v", l)
	}
	if l := hostList(t, r, map[string]any{"select": "host:far"}); len(l.Items) != 1 || l.Items[0].ID != "far:3" {
		t.Fatalf("select host:far: %+v", l)
	}
	if _, err := r.call("list-attention", map[string]any{"host": "nope"}); err == nil || err.Code != codeUnknownHost ||
		err.Hint == nil || len(err.Hint.Accepted) == 0 || err.Hint.Accepted[0] != "local" {
		t.Fatalf("unknown host: %+v", err)
	}

	// A far hold is answered there, never here.
	p := personRPC(t, sock)
	_, err := p.call("reply-approval", map[string]any{"request_id": "req-far-1", "decision": "once"})
	if err == nil || err.Hint == nil || !strings.Contains(err.Hint.Command, "tuios respond -w far:api:w9") {
		t.Fatalf("reply-approval of a far hold: %+v", err)
	}

	// Dismiss is local only, and u brings it back.
	res := p.must("dismiss-attention", map[string]any{"id": "far:3"})
	if res["local_only"] != true || res["host"] != "far" {
		t.Fatalf("dismiss: %v", res)
	}
	if _, ok := hostList(t, r, nil).item("far:3"); ok {
		t.Fatal("dismissed far item still listed")
	}
	if res := p.must("mark-attention", map[string]any{"action": "undo"}); res["id"] != "far:3" {
		t.Fatalf("undo: %v", res)
	}
	if _, ok := hostList(t, r, nil).item("far:3"); !ok {
		t.Fatal("undo did not bring the far item back")
	}
	if _, err := p.call("mark-attention", map[string]any{"action": "unread", "id": "far:3"}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("unread of a far item: %+v", err)
	}

	// The link drops: stale, listed, not counted.
	s.follow.Mirror(func(m *inbox.Mirror) []inbox.Event { return m.Down("far") })
	l = hostList(t, r, nil)
	it, ok = l.item("far:3")
	if !ok || !it.Stale || it.SeenAt == 0 || l.Total != 1 || l.Counts["approval"] != 1 {
		t.Fatalf("stale: %+v", l)
	}
	if len(l.Hosts) != 1 || !l.Hosts[0].Stale || l.Hosts[0].SeenAt == 0 {
		t.Fatalf("stale host: %+v", l.Hosts)
	}
}
