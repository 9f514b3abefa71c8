package config

import (
	"strings"

	"github.com/tuios/tuios/internal/grant"
)

// Permissions is [agents.permissions]: what a pane may do through TUIOS
// when nothing gave it grants of its own (README, "What a pane may do").
type Permissions struct {
	// Mode is open (the default: every pane holds admin) or strict
	// (every pane holds Grants). A value it does not know reads as
	// strict: a typo never opens anything.
	Mode string `toml:"mode"`
	// Grants is the strict default, nil when unset (read, write, fan);
	// an empty list gives nothing.
	Grants *[]string `toml:"grants"`
}

// DefaultStrictGrants is the strict mode's grants when the file gives none.
const DefaultStrictGrants = grant.Read | grant.Write | grant.Fan

// PaneDefault is a pane's grants when none were given to it: the mode
// ("open" or "strict"), what it gives, and the grant names the file holds
// that are not grants (dropped, so the caller can warn about them).
func (f *File) PaneDefault() (mode string, g grant.Set, unknown []string) {
	if f == nil {
		return "open", grant.Admin, nil
	}
	p := f.Agents.Permissions
	switch strings.ToLower(strings.TrimSpace(p.Mode)) {
	case "", "open":
		return "open", grant.Admin, nil
	}
	if p.Grants == nil {
		return "strict", DefaultStrictGrants, nil
	}
	g, unknown = grant.Lenient(*p.Grants)
	return "strict", g, unknown
}

// StrictGrants is the grants list of [agents.permissions] whatever the
// mode says: what a process the daemon started outside every pane shell
// (a hook, git, ssh's proxy) holds under strict. Under open it holds
// admin.
func (f *File) StrictGrants() grant.Set {
	if f == nil || f.Agents.Permissions.Grants == nil {
		return DefaultStrictGrants
	}
	g, _ := grant.Lenient(*f.Agents.Permissions.Grants)
	return g
}

// NarrowedPermissions is the [agents.permissions] that gives no more than
// both a and b: open only when both are, and under strict the grants
// both give. A daemon that follows its config file applies this at once,
// since narrowing applies at once and widening waits for tuios config
// apply: a pane that edits the file must not widen its own rights.
func NarrowedPermissions(a, b *File) Permissions {
	ma, ga, _ := a.PaneDefault()
	mb, gb, _ := b.PaneDefault()
	if ma == "open" && mb == "open" {
		return Permissions{Mode: "open"}
	}
	var g grant.Set
	switch {
	case ma == "open":
		g = gb
	case mb == "open":
		g = ga
	default: // admin's implied grants count on either side
		g = ga.Expand() & gb.Expand()
	}
	list := g.List()
	if g == grant.None {
		list = []string{}
	}
	return Permissions{Mode: "strict", Grants: &list}
}

// WiderPermissions reports whether b's [agents.permissions] gives a pane
// anything a's does not: strict to open, a grant added.
func WiderPermissions(a, b *File) bool {
	_, ga, _ := a.PaneDefault()
	_, gb, _ := b.PaneDefault()
	return !ga.Covers(gb)
}
