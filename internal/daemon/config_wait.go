package daemon

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
)

// Changes that wait (docs/security.md, What a pane may do). A program in a
// pane can edit config.toml as well as the person can, so what the file
// says is not what the daemon does until it is safe:
//
//   - a change that narrows [agents.permissions], [hosts] or a link
//     policy applies at once (config_follow.go follows the file);
//   - one that widens them (strict to open, a grant added, a new host, a
//     host that dials another way, more allow) waits for tuios config
//     apply from a terminal outside every pane (apply-config refuses a
//     pane), or a daemon restart. While it waits an Inbox item (kind
//     config, thing permissions), tuios pane-grants and the daemon log
//     say what waits;
//   - a daemon that starts with wider pane grants than it ran with last
//     time, or with respond_from_shell newly on, says so in the log,
//     pane-grants and the Inbox (thing widened), from a small file under
//     the state dir (grants/last.json).
//
// [agents] enabled and the other [agents] keys are read at start only,
// and set-config refuses them from a pane (config/edit.go): only the
// person turns agents on.

// lastGrants is what the daemon ran with, kept for its next start.
type lastGrants struct {
	Mode   string   `json:"mode"`
	Grants []string `json:"grants"`
	// RespondFromShell: a shell outside every pane answered prompts.
	RespondFromShell bool `json:"respond_from_shell,omitempty"`
}

// permText is [agents.permissions] in words: "open (admin)", "strict
// (read,write)".
func permText(p *mux.Permissions) string {
	return p.Mode + " (" + p.Def.String() + ")"
}

// waitingPermissions lists what f widens over inForce, in words; none
// when f gives panes nothing more.
func waitingPermissions(inForce, f *config.File) []string {
	if !config.WiderPermissions(inForce, f) {
		return nil
	}
	from, to := mux.PermissionsOf(inForce), mux.PermissionsOf(f)
	return []string{"[agents.permissions] " + permText(from) + " to " + permText(to)}
}

// waitingPolicy lists the link policy f widens over inForce: capabilities
// a machine would gain.
func waitingPolicy(inForce, f *config.File) []string {
	names := []string{""}
	if f != nil {
		for n := range f.Hosts {
			if n != "*" {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	var out []string
	for _, n := range names {
		was, now := capsOf(inForce.LinkPolicy(n).Allow), capsOf(f.LinkPolicy(n).Allow)
		if more := now &^ was; more != 0 {
			who := `[hosts."*"]`
			if n != "" {
				who = "[hosts." + n + "]"
			}
			out = append(out, who+" allow gains "+strings.Join(more.Names(), ", "))
		}
	}
	return out
}

// notePending puts what waits in the Inbox and the log, or closes the
// item when nothing does.
func (c *cfgFollow) notePending(pending []string) {
	c.mu.Lock()
	same := slices.Equal(c.pending, pending)
	c.pending = pending
	c.mu.Unlock()
	if same {
		return
	}
	summary := ""
	if len(pending) > 0 {
		summary = "waits for tuios config apply (from a terminal outside TUIOS): " + strings.Join(pending, "; ")
		c.s.opt.Logf("config changed: %s", summary)
	}
	c.s.att.Config("permissions", summary)
}

// Waiting is what waits for tuios config apply, and what the daemon
// found wider at its start, for pane-grants.
func (c *cfgFollow) Waiting() ([]string, string) {
	if c == nil {
		return nil, ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.pending), c.widened
}

// lastPath is the file the permissions of the last run are kept in; ""
// keeps nothing.
func (s *Server) lastPath() string {
	if s.opt.StateDir == "" {
		return ""
	}
	return filepath.Join(s.opt.StateDir, "grants", "last.json")
}

// compareWithLastRun reads what the last run's panes held, says so when
// this start gives more, and keeps this start's for the next.
func (c *cfgFollow) compareWithLastRun() {
	path := c.s.lastPath()
	if path == "" {
		return
	}
	now := c.s.perm.Load()
	if b, why := mux.ReadStateFile(path, c.s.uid, 64<<10); why == "" && b != nil {
		var last lastGrants
		if json.Unmarshal(b, &last) == nil && last.Mode != "" {
			was := grant.None
			if last.Mode == "open" {
				was = grant.Admin
			} else {
				was, _ = grant.Lenient(last.Grants)
			}
			var lines []string
			if !was.Covers(now.Def) {
				lines = append(lines, fmt.Sprintf("the daemon started with wider pane grants than at its last run: %s (%s) then, %s now", last.Mode, was, permText(now)))
			}
			if c.s.fromShell && !last.RespondFromShell {
				lines = append(lines, "the daemon started with respond_from_shell on, off at its last run: a shell outside every pane answers prompts as the person")
			}
			if len(lines) > 0 {
				line := strings.Join(lines, "; ")
				c.s.opt.Logf("grants: %s", line)
				c.mu.Lock()
				c.widened = line
				c.mu.Unlock()
				c.s.att.Config("widened", line)
			}
		}
	}
	c.s.keepLastGrants()
}

// keepLastGrants writes the permissions in force now for the next start.
func (s *Server) keepLastGrants() {
	path := s.lastPath()
	if path == "" {
		return
	}
	p := s.perm.Load()
	b, _ := json.Marshal(lastGrants{Mode: p.Mode, Grants: p.Def.List(), RespondFromShell: s.fromShell})
	if err := writeFileAtomic(path, b); err != nil {
		s.errorf("grants: keeping %s: %v", path, err)
	}
}

// applyPermissions installs [agents.permissions] of f: at start, on
// tuios config apply, and (narrowed) when the file changes. A change is
// logged.
func (s *Server) applyPermissions(f *config.File, why string) {
	next := mux.PermissionsOf(f)
	if _, _, unknown := f.PaneDefault(); len(unknown) > 0 {
		s.warnf("config [agents.permissions] grants: %q are not grants (ignored; grants: %s)", unknown, strings.Join(grant.Names(), ", "))
	}
	prev := s.perm.Swap(next)
	if prev != nil && *prev != *next {
		s.opt.Logf("grants: [agents.permissions] %s now, was %s (%s)", permText(next), permText(prev), why)
		s.keepLastGrants()
	}
}
