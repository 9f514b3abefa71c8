package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// The Hosts tab of the settings page: the machines this daemon links to,
// as tuios hosts lists them (the [hosts.NAME] tables of the config file,
// each with its link's state as the daemon holds it, and a host the file
// has but the daemon has not applied marked pending), and "+ Add a host".
//
// Add a host asks for a name and an ssh destination, checks them as
// tuios hosts add does (nothing is written when they are refused, and
// the form says why), writes [hosts.NAME] with the same edit of the file
// (config.SetHost), then asks the daemon to apply it (apply-config). A
// new host is a change that widens what reaches this machine, so the
// daemon applies it only for a caller outside every pane, by the
// kernel's word about the caller's process, never by anything a pane
// controls: the attached client in the person's terminal is such a
// caller, so the host applies at once. A client that runs inside a pane
// is refused like any program there, and the host waits for tuios
// config apply. apply-config applies everything that waits, so when the
// daemon says something else waits too (a pane may have widened the
// file), the host is saved and not applied, and the dock names what
// waits: the person decides with tuios config apply.

// hostLine is one row of the tab.
type hostLine struct {
	name, addr, status string
	why                string // why the link is not up, or why the table is refused (data: cleaned)
}

// hostsTab is the tab's state.
type hostsTab struct {
	rows []hostLine
	at   int // the selected row; len(rows) is "+ Add a host"
	path string
	note string // why the list is empty or unsure
}

// readHosts lists the hosts: the config file's tables now, the daemon's
// link states when it answers.
func (m *Model) readHosts() {
	t := &m.agentsUI.page.hosts
	if m.link.host != "" {
		t.rows, t.at, t.note = nil, 0, "The hosts are this machine's links; the session is on "+m.link.host+
			". Run tuios hosts there, or attach to a session here."
		return
	}
	t.path, t.note = m.opt.ConfigPath, ""
	t.rows = nil
	if f, err := config.Load(t.path); err != nil {
		t.note = "the config file does not read: " + clean(err.Error())
	} else if t.path != "" {
		for _, n := range f.HostNames() {
			h := f.Hosts[n]
			l := hostLine{name: n, addr: h.Addr, status: "unknown"}
			if err := (hosts.Host{Name: n, Addr: h.Addr, Command: h.Command, SSHOptions: h.SSHOptions}).Check(); err != nil {
				l.status, l.why = "refused", err.Error()
			}
			t.rows = append(t.rows, l)
		}
	}
	t.at = min(t.at, len(t.rows))
	m.call("list-hosts", nil, "settings:hosts")
}

// hostsReply takes list-hosts' answer: each link's state, over the file's
// rows. A row of the file the daemon does not hold waits for tuios config
// apply, as tuios hosts says.
func (m *Model) hostsReply(r replyMsg) {
	p := m.agentsUI.page
	if p == nil || m.link.host != "" {
		return
	}
	t := &p.hosts
	if r.err != nil {
		t.note = "the daemon did not list its links (" + errText(r.err) + "): the states are unknown"
		return
	}
	var res struct {
		Hosts []struct {
			Name    string `json:"name"`
			Addr    string `json:"addr"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Hint    string `json:"hint"`
			Refused bool   `json:"refused"`
		} `json:"hosts"`
	}
	if err := json.Unmarshal(r.raw, &res); err != nil {
		t.note = "list-hosts: " + err.Error()
		return
	}
	held := map[string]bool{}
	for _, h := range res.Hosts {
		held[h.Name] = true
		i := slices.IndexFunc(t.rows, func(l hostLine) bool { return l.name == h.Name })
		if i < 0 {
			// Held by the daemon, no longer (or not yet) in the file.
			t.rows = append(t.rows, hostLine{name: h.Name})
			i = len(t.rows) - 1
		}
		l := &t.rows[i]
		l.addr, l.status = h.Addr, h.Status
		if l.why == "" {
			l.why = h.Reason
			if h.Hint != "" {
				l.why += " (" + h.Hint + ")"
			}
		}
	}
	for i := range t.rows {
		if l := &t.rows[i]; !held[l.name] && l.status == "unknown" {
			l.status, l.why = "pending", "in the config file, not applied yet: run tuios config apply from a terminal outside TUIOS"
		}
	}
	t.at = min(t.at, len(t.rows))
}

// hostsKey is a key of the page's table on the Hosts tab.
func (m *Model) hostsKey(act string) {
	t := &m.agentsUI.page.hosts
	switch act {
	case "settings.up":
		t.at = max(t.at-1, 0)
	case "settings.down":
		t.at = min(t.at+1, len(t.rows))
	case "settings.top":
		t.at = 0
	case "settings.bottom":
		t.at = len(t.rows)
	case "settings.do":
		if t.at == len(t.rows) {
			m.openHostForm()
		} else if l := t.rows[t.at]; l.why != "" {
			m.say("host %s: %s", l.name, l.why)
		}
	}
}

// openHostForm is Add a host.
func (m *Model) openHostForm() {
	p := m.agentsUI.page
	if m.link.host != "" {
		m.say("Add a host: the hosts are this machine's links; the session is on %s", m.link.host)
		return
	}
	p.form = &settingsForm{
		title: "Add a host: this machine's daemon links to it over ssh, from now on",
		fields: []formField{
			{label: "Name", help: "how you name it in -s NAME:SESSION: letters, digits, '.', '-', '_'"},
			{label: "Address", help: "what ssh takes: host, user@host, user@host:port, ssh://user@host:port, an ~/.ssh/config alias"},
		},
		saveWord: "add",
		save:     (*Model).addHost,
	}
}

// addHost checks the form as tuios hosts add does and writes the host.
// It returns why the input is refused ("" when written); a refused host
// leaves the file as it was.
func (m *Model) addHost(f *settingsForm) string {
	name, addr := strings.TrimSpace(f.value(0)), strings.TrimSpace(f.value(1))
	if name == "" {
		f.at = 0
		return "give the host a name: letters, digits, '.', '-' and '_'"
	}
	if addr == "" {
		f.at = 1
		return "give the address ssh would use, such as me@buildbox or me@buildbox:2222"
	}
	if err := (hosts.Host{Name: name, Addr: addr}).Check(); err != nil {
		// The cursor goes to the field at fault, the reason under it.
		var he *hosts.Error
		if errors.As(err, &he) {
			f.at = 1
			if he.Reason == hosts.ReasonBadName {
				f.at = 0
			}
			if he.Hint() != "" {
				return err.Error() + ": " + he.Hint()
			}
		}
		return err.Error()
	}
	path := m.opt.ConfigPath
	if path == "" {
		return "the client has no config file path (set HOME or XDG_CONFIG_HOME); nothing was written"
	}
	file, err := config.Load(path)
	if err != nil {
		return "the config file does not read, so nothing was written: " + err.Error()
	}
	if old, ok := file.Hosts[name]; ok {
		f.at = 0
		return fmt.Sprintf("a host named %s is there already (%s); pick another name, or replace it with tuios hosts add %s ADDR", name, old.Addr, name)
	}
	if err := config.SetHost(path, name, config.Host{Addr: addr}); err != nil {
		return err.Error()
	}
	m.say("added host %s (%s) to %s; applying…", name, addr, path)
	// What else waits decides whether applying would apply more than
	// this host (pendingReply).
	m.call("pane-grants", nil, "settings:pending:"+name)
	if p := m.agentsUI.page; p != nil && p.tab == tabHosts {
		m.readHosts()
	}
	return ""
}

// pendingReply takes pane-grants' answer after a host was added: when
// nothing but that host waits, the daemon is asked to apply it.
func (m *Model) pendingReply(name string, r replyMsg) {
	var res proto.PaneGrants
	if r.err == nil {
		json.Unmarshal(r.raw, &res)
	}
	var others []string
	for _, p := range res.Pending {
		if p != "host "+name+" added or changed" {
			others = append(others, clean(p))
		}
	}
	switch {
	case r.err != nil:
		m.say("host %s is saved; it waits for tuios config apply (pane-grants: %s)", name, errText(r.err))
	case len(others) > 0:
		m.say("host %s is saved, not applied: other changes wait too (%s); run tuios config apply from a terminal outside TUIOS to apply them all", name, strings.Join(others, "; "))
	default:
		m.call("apply-config", nil, "settings:apply:"+name)
	}
}

// applyReply takes apply-config's answer for an added host.
func (m *Model) applyReply(name string, r replyMsg) {
	var pe *proto.Error
	switch {
	case r.err == nil:
		var res struct {
			Path    string   `json:"path"`
			Added   []string `json:"added"`
			Refused []struct {
				Host   string `json:"host"`
				Reason string `json:"reason"`
			} `json:"refused"`
		}
		json.Unmarshal(r.raw, &res)
		if res.Path != "" && m.opt.ConfigPath != "" && res.Path != m.opt.ConfigPath {
			// The daemon runs with another HOME or XDG_CONFIG_HOME.
			m.say("host %s is saved in %s, but the daemon reads %s: it does not see the host; run tuios hosts add there", name, m.opt.ConfigPath, clean(res.Path))
			break
		}
		what := "applied"
		if slices.Contains(res.Added, name) {
			what = "applied: dialling " + name
		}
		for _, x := range res.Refused {
			if x.Host == name {
				what = "refused: " + clean(x.Reason)
			}
		}
		m.say("host %s added and %s", name, what)
	case errors.As(r.err, &pe) && pe.Code == proto.CodeForbidden:
		// This client runs inside a pane: the daemon does not take it
		// for the person.
		m.say("host %s is saved; it waits for tuios config apply from a terminal outside TUIOS (this client runs inside a pane)", name)
	default:
		m.say("host %s is saved; apply-config: %s", name, errText(r.err))
	}
	if p := m.agentsUI.page; p != nil && p.tab == tabHosts {
		m.readHosts()
	}
}

// hostsLines draw the tab's body in rows lines: the hosts with their
// state, the line under a host that is not up, and "+ Add a host".
// rowOf[i] is the row line i shows (len(rows) for + Add a host), -1 for
// none: a click finds its row there.
func (m *Model) hostsLines(cols, rows int) (lines []string, rowOf []int) {
	t := &m.agentsUI.page.hosts
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	head := " The machines this daemon links to over ssh ([hosts] of the config file), as tuios hosts lists them"
	if t.path != "" {
		head = " The machines this daemon links to over ssh: [hosts] in " + t.path
	}
	out := []string{line(head)}
	if t.note != "" {
		out = append(out, line(" "+t.note))
	}
	nw, aw := 4, 4
	for _, l := range t.rows {
		nw, aw = max(nw, len([]rune(l.name))), max(aw, len([]rune(l.addr)))
	}
	nw, aw = min(nw, 24), min(aw, 36)
	out = append(out, line(""), sgrBold+line("   "+padRight("HOST", nw)+"  "+padRight("ADDR", aw)+"  STATUS")+sgrReset)
	var list []string
	var listRow []int
	sel := 0
	for i, l := range t.rows {
		if i == t.at {
			sel = len(list)
		}
		row := line("   " + padRight(clean(l.name), nw) + "  " + padRight(clean(l.addr), aw) + "  " + l.status)
		if i == t.at {
			row = sgrSelect + row + sgrReset
		}
		list, listRow = append(list, row), append(listRow, i)
		if l.why != "" {
			list, listRow = append(list, sgrMuted+line("   "+padRight("", nw)+"  "+clean(l.why))+sgrReset), append(listRow, -1)
		}
	}
	if len(t.rows) == 0 && t.note == "" {
		list, listRow = append(list, line("   no hosts yet")), append(listRow, -1)
	}
	add := line(" + Add a host")
	if t.at == len(t.rows) {
		sel = len(list) + 1
		add = sgrSelect + add + sgrReset
	}
	list, listRow = append(list, line(""), add), append(listRow, -1, len(t.rows))
	room := rows - len(out)
	if len(list) > room && room > 0 {
		first := max(sel-room+1, 0)
		end := min(first+room, len(list))
		list, listRow = list[first:end], listRow[first:end]
	}
	for range out {
		rowOf = append(rowOf, -1)
	}
	return append(out, list...), append(rowOf, listRow...)
}
