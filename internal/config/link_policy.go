package config

import "slices"

// Link capabilities: what another machine may do here over its link.
const (
	CapList    = "list"    // reads, waits, subscribe, peek-prompt
	CapMail    = "mail"    // mail and stash verbs
	CapOpen    = "open"    // sessions, windows, panes, agents started
	CapWrite   = "write"   // typing, window changes, agent reports, review, queue
	CapRespond = "respond" // answering prompts and the Inbox as the person
)

// LinkCapabilities lists every capability, in the order the docs give.
func LinkCapabilities() []string {
	return []string{CapList, CapMail, CapOpen, CapWrite, CapRespond}
}

// DefaultLinkAllow is what a machine may do when no table says otherwise:
// everything but respond, which is opt-in.
func DefaultLinkAllow() []string {
	return []string{CapList, CapMail, CapOpen, CapWrite}
}

// LinkPolicy is what one peer may do here, resolved.
type LinkPolicy struct {
	// Allow is the capabilities, sorted in LinkCapabilities order,
	// without unknown names.
	Allow []string
	// From is the table that set Allow: `hosts.NAME`, `hosts."*"`, or
	// "default".
	From string
	// HoldMail keeps that machine's mail for the person to pass on.
	HoldMail bool
	// Unknown are names in allow that are no capability (ignored).
	Unknown []string
}

// Can reports whether the policy allows capability c.
func (p LinkPolicy) Can(c string) bool { return slices.Contains(p.Allow, c) }

// LinkPolicy resolves the link policy for a peer named name: the built-in
// default, then [hosts."*"], then [hosts.NAME]; an allow that is set
// replaces what came before (allow = [] allows nothing), and so does a
// hold_mail that is set. A nil File, or an empty name (a link that never
// said who it is), gets [hosts."*"] and the default.
func (f *File) LinkPolicy(name string) LinkPolicy {
	p := LinkPolicy{Allow: DefaultLinkAllow(), From: "default"}
	if f == nil {
		return p
	}
	apply := func(table string, h Host) {
		if h.Allow != nil {
			p.Allow, p.Unknown = nil, nil
			for _, c := range *h.Allow {
				if slices.Contains(LinkCapabilities(), c) {
					p.Allow = append(p.Allow, c)
				} else {
					p.Unknown = append(p.Unknown, c)
				}
			}
			p.From = table
		}
		if h.HoldMail != nil {
			p.HoldMail = *h.HoldMail
		}
	}
	if h, ok := f.Hosts["*"]; ok {
		apply(`hosts."*"`, h)
	}
	if h, ok := f.Hosts[name]; ok && name != "" && name != "*" {
		apply("hosts."+name, h)
	}
	// One order whatever the file says, and no repeats.
	var out []string
	for _, c := range LinkCapabilities() {
		if slices.Contains(p.Allow, c) {
			out = append(out, c)
		}
	}
	p.Allow = out
	return p
}
