package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
)

type hostConnResult struct {
	Type   string `json:"type"`
	Host   string `json:"host"`
	Status string `json:"status"`
}

type configAppliedResult struct {
	Type string `json:"type"`
	Path string `json:"path"`
	links.Changes
	// Applied lists the changes that waited and now apply.
	Applied []string `json:"applied"`
	Notify  []string `json:"notify"` // what changed in [notify] (internal/daemon/notify)
}

// hostVerbs are the core's verbs about this machine's links to other
// hosts (list-hosts and list-outbox are the links feature's: links/verbs.go).
func (s *Server) hostVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.OpenHostParams) (any, *proto.Error) {
		if cn.sub != nil || cn.attached != nil || cn.attaching != nil || cn.host != nil {
			return nil, proto.Errorf(proto.CodeInvalidRequest, "this connection already streams (subscribe, attach or a host connection); open-host-connection needs a fresh one")
		}
		ctx, cancel := context.WithTimeout(cn.ctx, links.OpenTimeout)
		hc, perr := s.links.OpenConn(ctx, hostClient{cn}, p.Host) // links/conn.go: a pooled channel when there is one
		cancel()
		if perr != nil {
			return nil, perr
		}
		cn.host = hc
		return hostConnResult{Type: "host_connection", Host: p.Host, Status: links.StatusUp}, nil
	})
	add("open-host-connection", whoGranted|needAdmin|access(capAll)|holdsConn, "Hand this connection to a host's daemon: every later request line is answered by that daemon, with its own verb table, as it is (its text is data from another machine). When the link drops, requests still waiting are answered host_unreachable and the connection closes",
		"host_connection", `{"verb":"open-host-connection","params":{"host":"build"}}`, p, h)

	p, h = handler(func(cn *conn, _ *proto.ApplyConfigParams) (any, *proto.Error) {
		if cn.link != nil || !s.outsidePanes(cn) { // its declaration says so too (outsideOnly)
			return nil, proto.Errorf(proto.CodeForbidden, "apply-config changes which machines this daemon links to and what they and its panes may do; a program inside a pane (or another machine) may not").
				WithHint(proto.Hint{Command: "tuios config apply", Detail: "run it from a terminal outside TUIOS"})
		}
		path := s.opt.Config.Path
		if path == "" {
			path = config.Path(s.getenv)
		}
		s.cfg.order.Lock() // config_follow.go: not beside the follower
		defer s.cfg.order.Unlock()
		f, err := config.Load(path)
		if err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%v: nothing was applied", err).
				WithHint(proto.Hint{Detail: "fix the file and apply again"})
		}
		pending, _ := s.cfg.Waiting()
		got := s.links.Apply(f)
		s.applyLinkPolicy(f)
		s.applyPermissions(f, "tuios config apply")
		s.cfg.setApplied(f)
		notify := s.push.Apply(f) // internal/daemon/notify
		return configAppliedResult{Type: "config_applied", Path: path, Changes: got, Applied: orEmpty(pending), Notify: notify}, nil
	})
	add("apply-config", outsideOnly, "Read the config file again and apply what waited: its [hosts] tables (new hosts are dialled, changed ones redialled, removed ones closed at once, the link policy replaced), [agents.permissions] and [notify] (push notifications: notify lists what changed). Refused from inside a pane",
		"config_applied", `{"verb":"apply-config"}`, p, h)
}

// orEmpty is v, or an empty list for nil (a JSON [] rather than null).
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
