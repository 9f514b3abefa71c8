package links

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The verbs the links add to the verb table: the listings of this
// machine's links and its outbox. What hands a connection over
// (open-host-connection), what applies the config file to every feature
// (apply-config) and what a link that comes in calls (link-peer) are the
// core's.

type listHostsParams struct{}

type hostListResult struct {
	Type   string    `json:"type"`
	Hosts  []HostRow `json:"hosts"`
	Events bool      `json:"events_push"`
}

type listOutboxParams struct {
	Host string `json:"host" desc:"only this host" maxlen:"255"`
}

func (ls *Links) addVerbs(h core.Registrar) {
	p, run := core.Handle(func(core.Call, *listHostsParams) (any, *proto.Error) {
		return hostListResult{Type: "host_list", Hosts: ls.Rows(), Events: true}, nil
	})
	h.AddVerb(core.Verb{Name: "list-hosts", Class: core.ReadsAll,
		Desc:    "List the hosts this daemon links to ([hosts.NAME] in the config file) and each link's state: up, connecting, reconnecting, no_daemon, no_tuios, unreachable or incompatible, with the reason, a hint and since when; a change is a host-changed event",
		Returns: "host_list", Example: `{"verb":"list-hosts"}`, Params: p, Run: run})

	p, run = core.Handle(ls.listOutbox)
	h.AddVerb(core.Verb{Name: "list-outbox", Class: core.ReadsAll,
		Desc:    "List the mail waiting for other machines' links, host by host in sending order, with each host's latest refusal (over a link: the counts only)",
		Returns: "outbox_list", Example: `{"verb":"list-outbox","params":{"host":"build"}}`, Params: p, Run: run})
}

func (ls *Links) listOutbox(c core.Call, p *listOutboxParams) (any, *proto.Error) {
	list := ls.outbox.List(p.Host)
	total := 0
	for i := range list {
		total += list[i].Waiting
		if c != nil && c.Remote() { // another machine sees counts, not this machine's mail to a third
			list[i].Messages, list[i].Refused = []OutboxMsg{}, ""
		}
		if list[i].Status = ls.Status(list[i].Host); list[i].Status == "" {
			list[i].Status = "not_configured" // removed from the table: its mail waits
		}
	}
	return &proto.OutboxList{Type: "outbox_list", Hosts: list, Waiting: total,
		PerHostCap: OutboxPerHost, TotalCap: OutboxTotal}, nil
}
