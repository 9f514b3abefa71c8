package links

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
)

// stateCore is the core as New and Apply use it before Start: options,
// a clock, the hub's Publish (recorded) and AddVerb (recorded).
type stateCore struct {
	testCore
	cfg  *config.File
	done chan struct{}

	mu     sync.Mutex
	events []string
	verbs  []string
}

func (c *stateCore) Options() core.Options            { return core.Options{Config: c.cfg} }
func (c *stateCore) Done() <-chan struct{}            { return c.done }
func (c *stateCore) Clock() agentstate.Clock          { return c.clk }
func (c *stateCore) AddVerb(v core.Verb)              { c.verbs = append(c.verbs, v.Name) }
func (c *stateCore) OnRestored(func([]core.Restored)) {}
func (c *stateCore) Publish(ev core.Event) core.Event {
	c.mu.Lock()
	c.events = append(c.events, ev.Host+" "+ev.Status)
	c.mu.Unlock()
	return ev
}

func (c *stateCore) heard() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.events)
}

// Before any dial, each configured host is connecting, a table a link
// will not use is listed refused and never dialled, and a call to a host
// that is not up, refused or not configured says which of the three,
// naming the configured hosts; Apply adds and removes hosts and says so
// on the hub.
func TestLinksStateBeforeTheFirstDial(t *testing.T) {
	t.Parallel()
	c := &stateCore{testCore: testCore{clk: fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))}, done: make(chan struct{}),
		cfg: &config.File{Hosts: map[string]config.Host{"build": {Addr: "me@build"}, "bad": {Addr: "-oProxyCommand=evil"}}}}
	ls := New(c, Options{Getenv: func(string) string { return "" }})
	defer ls.Close()
	if err := ls.Init(c); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.verbs, []string{"list-hosts", "list-outbox"}) {
		t.Fatalf("verbs added: %v", c.verbs)
	}
	rows := ls.Rows()
	if len(rows) != 2 || rows[0].Name != "bad" || !rows[0].Refused || rows[0].Status != StatusUnreachable || !strings.Contains(rows[0].Reason, "starts with '-'") ||
		rows[1].Name != "build" || rows[1].Refused || rows[1].Status != StatusConnecting || rows[1].Since != "2026-05-01T09:00:00Z" {
		t.Fatalf("rows %+v", rows)
	}
	if got := []string{ls.Status("build"), ls.Status("bad"), ls.Status("nope")}; !slices.Equal(got, []string{"connecting", "unreachable", ""}) {
		t.Fatalf("statuses %q", got)
	}
	ctx := context.Background()
	if err := ls.Call(ctx, "nope", "hello", nil, nil); err == nil || err.Code != CodeUnknownHost || !strings.Contains(err.Message, "the configured hosts are bad, build") {
		t.Fatalf("an unknown host: %+v", err)
	}
	if err := ls.Call(ctx, "bad", "hello", nil, nil); err == nil || err.Code != CodeHostUnreachable || !strings.Contains(err.Message, "host bad is never dialled") {
		t.Fatalf("a refused table: %+v", err)
	}
	if _, err := ls.Open(ctx, "build"); err == nil || err.Code != CodeHostUnreachable || err.Message != "host build is connecting" {
		t.Fatalf("a host not up yet: %+v", err)
	}
	got := ls.Apply(&config.File{Hosts: map[string]config.Host{"gpu": {Addr: "me@gpu"}, "bad": {Addr: "-x"}}})
	if !slices.Equal(got.Added, []string{"gpu"}) || !slices.Equal(got.Removed, []string{"build"}) || len(got.Changed) != 0 ||
		len(got.Refused) != 1 || got.Refused[0].Host != "bad" {
		t.Fatalf("Apply: %+v", got)
	}
	if ev := c.heard(); !slices.Equal(ev, []string{"build connecting", "build removed", "gpu connecting"}) {
		t.Fatalf("host-changed events %q", ev)
	}
	if names := ls.Names(); !slices.Equal(names, []string{"bad", "gpu"}) {
		t.Fatalf("names %v", names)
	}
}
