package mux

import (
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// GrantRefusal is the error for a pane that lacks grants a verb needs: it
// names the grant and the command that gives it.
func GrantRefusal(verb string, a drpc.Access, miss grant.Set, c Caller) *proto.Error {
	return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: %s needs the %s grant", verb, actionText(a), strings.Join(miss.List(), " and ")).
		WithHint(GrantHint(miss, c))
}

// actionText says in words what a declaration does, for refusals.
func actionText(a drpc.Access) string {
	switch {
	case a.Types():
		return "typing into a pane of its own session"
	case a.Link()&core.CapMail != 0 && a.Grants().Has(grant.Write):
		return "leaving mail or files in its own session"
	case a.Grants().Has(grant.Fan) && !a.Grants().Has(grant.Admin):
		return "starting an agent"
	case a.Grants().Has(grant.Files) && !a.Grants().Has(grant.Admin):
		return "copying files"
	case a.Link()&core.CapOpen != 0:
		return "opening or closing sessions and windows"
	case a.Grants() == grant.Admin && a.Link()&core.CapLocal != 0:
		return "changing the daemon and its settings"
	case a.Grants() == grant.Admin:
		return "arranging windows, workspaces and layouts"
	case a.Grants().Has(grant.Write):
		return "writing into the pane's own session"
	case a.Grants().Has(grant.Read):
		return "reading"
	}
	return "this"
}

// GrantHint says what the caller holds and how to get more: the person
// gives grants, from a terminal outside TUIOS.
func GrantHint(need grant.Set, c Caller) proto.Hint {
	pane := "PANE"
	if c.Pane != nil {
		pane = c.Pane.ID[:8]
	}
	list := (c.Grants | need).String()
	return proto.Hint{Command: "tuios pane-grants",
		Detail: "this pane holds " + c.Grants.String() + "; the person gives more from a terminal outside TUIOS: tuios set-pane-grants -w " + pane + " --grants " + list +
			", or [agents.permissions] in config.toml"}
}
