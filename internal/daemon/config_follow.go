package daemon

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/links"
)

// cfgFollow follows the config file while the daemon runs, so an edit needs
// no restart (docs/hosts.md, Links), within what may change without the
// person: a host removed from [hosts] has its link closed at once, and the
// link policy and [agents.permissions] narrow at once to what both the
// rules in force and the edited file allow. Added or changed hosts and any
// widening wait for apply-config (`tuios config apply`, or `tuios hosts
// add` from a terminal outside TUIOS), because a program in a pane can edit
// the file too, and must not widen what it or another machine may do
// (config_wait.go).
type cfgFollow struct {
	s *Server

	// order lets one reading of the file be applied at a time: the
	// follower's (two can run at once, a debounce apart) and
	// apply-config's. Without it a reading could narrow from a rule that
	// another had just replaced and put it back, or say what waits after
	// apply-config applied it. It is held across reading the file and
	// applying it, never taken under another lock; only the follower and
	// apply-config wait on it.
	order sync.Mutex

	mu      sync.Mutex
	applied *config.File // the file apply-config (or the start) applied
	// inForce holds the [agents.permissions] and link policy in force:
	// applied, narrowed by every edit since. Narrowing is always against
	// it, so an edit that narrows and a later one that widens back does
	// not widen.
	inForce *config.File
	// pending says what of the file waits for apply-config; widened what
	// the daemon found wider at its start (config_wait.go).
	pending []string
	widened string
	cancel  func()
	stopped bool
	// problems are the hosts whose Inbox row says why no link is held.
	problems map[string]string
}

func newCfgFollow(s *Server, f *config.File) *cfgFollow {
	return &cfgFollow{s: s, applied: f, inForce: policyPart(f)}
}

// policyPart is the part of f that decides what panes and other machines
// may do: [agents.permissions] and the [hosts] tables.
func policyPart(f *config.File) *config.File {
	out := &config.File{}
	if f != nil {
		out.Agents.Permissions = f.Agents.Permissions
		out.Hosts = maps.Clone(f.Hosts)
	}
	return out
}

// start watches the file (its directory, so a rename over it is seen). No
// watcher means no following: apply-config still works.
func (c *cfgFollow) start() {
	c.mu.Lock()
	applied := c.applied
	c.mu.Unlock()
	c.noteProblems(applied, applied)
	c.watch()
}

// watch watches the file, or, while its directory does not exist yet (a
// machine that has no config file), the nearest folder above it that
// does: a file written later must narrow at once too.
func (c *cfgFollow) watch() {
	path := c.path()
	w := c.s.opt.Tracker.Watcher
	if path == "" || w == nil {
		return
	}
	cancel, err := w.Watch(path, c.changed)
	for errors.Is(err, fs.ErrNotExist) {
		below, above := path, filepath.Dir(path)
		for !existsDir(above) && filepath.Dir(above) != above {
			below, above = above, filepath.Dir(above)
		}
		cancel, err = w.WatchDir(above, c.made)
		if err != nil || !existsPath(below) {
			break
		}
		// Made before the watch began: go closer.
		cancel()
		cancel, err = w.Watch(path, c.changed)
	}
	if err != nil {
		c.s.warnf("config %s: not followed (%v); tuios config apply reads it", path, err)
		return
	}
	c.mu.Lock()
	stopped := c.stopped
	if !stopped {
		c.cancel = cancel
	}
	c.mu.Unlock()
	if stopped {
		cancel()
	}
}

// made is a change in the folder watched while the config's own folder
// did not exist: watch again, closer to the file, and read the file if it
// was written before that watch began.
func (c *cfgFollow) made() {
	c.mu.Lock()
	cancel := c.cancel
	c.cancel = nil
	stopped := c.stopped
	c.mu.Unlock()
	if stopped {
		return
	}
	if cancel != nil {
		cancel()
	}
	c.watch()
	if existsPath(c.path()) {
		c.changed()
	}
}

func existsDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func existsPath(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (c *cfgFollow) stop() {
	c.mu.Lock()
	cancel := c.cancel
	c.cancel = nil
	c.stopped = true
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// path is the file the daemon read; "" (a config given in memory, as
// tests do) follows nothing.
func (c *cfgFollow) path() string {
	if c.s.opt.Config == nil {
		return ""
	}
	return c.s.opt.Config.Path
}

// setApplied records what apply-config applied in full: nothing waits.
func (c *cfgFollow) setApplied(f *config.File) {
	c.mu.Lock()
	c.applied = f
	c.inForce = policyPart(f)
	c.mu.Unlock()
	c.noteProblems(f, f)
	c.notePending(nil)
}

// noteProblems gives every host that holds no link for a reason of this
// machine's an Inbox row naming it (an ssh option refused, such as a
// ProxyCommand; added to the file, waiting for tuios config apply), so the
// person learns why it is not linked; and clears the rows of hosts that no
// longer have one.
func (c *cfgFollow) noteProblems(applied, file *config.File) {
	now := map[string]string{}
	if applied != nil {
		for _, n := range applied.HostNames() {
			if err := links.HostOf(n, applied.Hosts[n]).Check(); err != nil {
				now[n] = err.Error()
			}
		}
	}
	if file != nil {
		for _, n := range pendingHosts(applied, file) {
			if err := links.HostOf(n, file.Hosts[n]).Check(); err != nil {
				now[n] = err.Error()
			} else {
				now[n] = "added to the config file and not applied yet: run tuios config apply from a terminal outside TUIOS"
			}
		}
	}
	c.mu.Lock()
	was := c.problems
	c.problems = now
	c.mu.Unlock()
	for n := range was {
		if _, ok := now[n]; !ok {
			c.s.links.SetHostProblem(n, "")
		}
	}
	for n, why := range now {
		if was[n] != why {
			c.s.links.SetHostProblem(n, why)
		}
	}
}

// changed reads the edited file and applies its removals and narrowing.
// A file that does not parse changes nothing.
func (c *cfgFollow) changed() {
	c.order.Lock()
	defer c.order.Unlock()
	f, err := config.Load(c.path())
	if err != nil {
		c.s.warnf("config changed but does not parse (%v): nothing applied", err)
		return
	}
	c.mu.Lock()
	applied := c.applied
	c.mu.Unlock()
	// The hosts still applied: the applied tables minus those the file
	// no longer has. What is new or changed waits.
	keep := &config.File{Hosts: map[string]config.Host{}}
	removed := 0
	if applied != nil {
		for n, h := range applied.Hosts {
			if _, ok := f.Hosts[n]; ok {
				keep.Hosts[n] = h
			} else if n != "*" {
				removed++
			}
		}
	}
	if removed > 0 {
		c.s.links.Apply(keep)
	}
	c.mu.Lock()
	inForce := c.inForce
	c.mu.Unlock()
	narrowed := &config.File{Hosts: config.NarrowedHosts(inForce, f).Hosts}
	narrowed.Agents.Permissions = config.NarrowedPermissions(inForce, f)
	c.s.applyLinkPolicy(narrowed)
	c.s.applyPermissions(narrowed, "narrowed at once by an edit of "+c.path())
	c.mu.Lock()
	c.inForce = narrowed
	c.mu.Unlock()
	var waits []string
	for _, n := range pendingHosts(applied, f) {
		waits = append(waits, "host "+n+" added or changed")
	}
	waits = append(waits, waitingPermissions(narrowed, f)...)
	waits = append(waits, waitingPolicy(narrowed, f)...)
	// internal/daemon/notify: [notify] narrows at once; where notifications go waits, as
	// every widening does, and is named with the rest.
	waits = append(waits, c.s.push.FileChanged(f)...)
	c.notePending(waits)
	c.noteProblems(keep, f)
}

// pendingHosts are the dialable hosts of f that applied lacks or has in
// another form.
func pendingHosts(applied, f *config.File) []string {
	var out []string
	for _, n := range f.HostNames() {
		var old config.Host
		var ok bool
		if applied != nil {
			old, ok = applied.Hosts[n]
		}
		h := f.Hosts[n]
		if !ok || old.Addr != h.Addr || old.Command != h.Command || old.ConnectTimeout != h.ConnectTimeout || !slices.Equal(old.SSHOptions, h.SSHOptions) {
			out = append(out, n)
		}
	}
	return out
}
