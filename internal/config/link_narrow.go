package config

import "slices"

// NarrowedHosts is the hosts tables that allow no more than both a and
// b: for every peer either file names (and for machines without a table)
// the capabilities both allow, and hold_mail where either holds. A daemon
// that follows its config file installs this at once when the file
// changes, because narrowing applies to the next call on every link
// while widening waits for `tuios config apply`. Only the policy keys are
// kept; addresses and ssh options are a's.
func NarrowedHosts(a, b *File) *File {
	out := &File{Hosts: map[string]Host{}}
	if a != nil {
		for n, h := range a.Hosts {
			out.Hosts[n] = h
		}
	}
	names := []string{"*"}
	for _, f := range []*File{a, b} {
		if f != nil {
			for n := range f.Hosts {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		pa, pb := a.LinkPolicy(n), b.LinkPolicy(n)
		if n == "*" {
			pa, pb = a.LinkPolicy(""), b.LinkPolicy("")
		}
		allow := []string{}
		for _, c := range pa.Allow {
			if slices.Contains(pb.Allow, c) {
				allow = append(allow, c)
			}
		}
		hold := pa.HoldMail || pb.HoldMail
		h := out.Hosts[n]
		h.Allow, h.HoldMail = &allow, &hold
		out.Hosts[n] = h
	}
	return out
}
