package core

import "github.com/tuios/tuios/internal/config"

// LinkCap is a set of link capabilities (docs/hosts.md, What another
// machine may do here): what another machine's link needs to call a
// verb. Every verb's declaration names one (the verb registry's, package
// rpc), and the link policy (the links feature's) grants them per peer,
// so the bits live here, where both may read them.
type LinkCap uint8

const (
	CapList LinkCap = 1 << iota
	CapMail
	CapOpen
	CapWrite
	CapRespond
	// CapLocal marks a verb never served over a link.
	CapLocal

	CapNone LinkCap = 0
	CapAll          = CapList | CapMail | CapOpen | CapWrite | CapRespond
)

// Names are the capabilities in the docs' order, for hints.
func (c LinkCap) Names() []string {
	var out []string
	for i, n := range config.LinkCapabilities() {
		if c&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// CapsOf is the set the names say (an allow list); unknown names add
// nothing.
func CapsOf(names []string) LinkCap {
	var c LinkCap
	for i, n := range config.LinkCapabilities() {
		for _, x := range names {
			if x == n {
				c |= 1 << i
			}
		}
	}
	return c
}
