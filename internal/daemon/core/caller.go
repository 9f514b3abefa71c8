package core

import "github.com/tuios/tuios/internal/grant"

// Caller is who made a call, as the grants read it (Host.Caller): never
// from anything the caller says.
type Caller struct {
	// Inside is a caller on the daemon's side (in a pane, or inside in no
	// pane it can name): never the person.
	Inside bool
	// Own is the daemon acting on its own behalf (Host.Own): no grant
	// applies.
	Own bool
	// Link is another machine's link: its policy, not pane grants, says
	// what it may do.
	Link bool
	// Pane is the window it runs in; "" when it runs in none.
	Pane string
	// Grants is what it may do: its pane's grants, the strict list for a
	// process inside that names no pane, every grant outside.
	Grants grant.Set
	// ReadOnly is a connection its caller made read-only
	// (restrict-connection; tuios mcp --read-only): it types into no pane
	// and changes no files.
	ReadOnly bool
}
