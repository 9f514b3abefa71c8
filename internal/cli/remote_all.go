package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// --all-hosts: one listing verb on this machine and on every
// configured host at once, each host with a bounded wait. A host that
// does not answer gets a row with its status and never fails the command.

// defaultHostWait bounds each host's answer under --all-hosts.
const defaultHostWait = 5 * time.Second

// hostListing is one host's part of an --all-hosts listing.
type hostListing struct {
	Host      string          `json:"host"`
	Status    string          `json:"status"`
	Sessions  json.RawMessage `json:"sessions,omitempty"`
	Agents    json.RawMessage `json:"agents,omitempty"`
	Error     *Error          `json:"error,omitempty"`
	Untrusted bool            `json:"untrusted,omitempty"`
}

// allHostsFlags are the flags of a listing that can span every host.
func allHostsFlags(fs *FlagSet) {
	fs.Bool("all-hosts", false, "this machine and every linked host (tuios hosts), each in parallel")
	fs.Int("host-timeout", int(defaultHostWait/time.Millisecond), "with --all-hosts: the `MS` to wait for each host")
}

// listAllHosts runs verb (list-sessions or list-agents) here and on every
// host the daemon links to; key is the listing's field (sessions, agents).
// Only this machine's failure fails it.
func listAllHosts(ctx *Context, verb string, p any, key string) ([]hostListing, error) {
	wait := time.Duration(flagInt(ctx, "host-timeout")) * time.Millisecond
	if wait <= 0 {
		return nil, usageError("give milliseconds, such as --host-timeout 5000", "--host-timeout must be positive")
	}
	var local map[string]json.RawMessage
	if err := callLocal(verb, p, &local); err != nil {
		return nil, err
	}
	rows := []hostListing{{Host: hosts.Local, Status: "up"}}
	rows[0].set(key, local[key])

	names, status := linkedHosts()
	out := make([]hostListing, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = listOneHost(name, status[name], verb, p, key, time.Now().Add(wait))
		}()
	}
	wg.Wait()
	return append(rows, out...), nil
}

func (h *hostListing) set(key string, v json.RawMessage) {
	if len(v) == 0 || string(v) == "null" {
		v = json.RawMessage("[]")
	}
	if key == "agents" {
		h.Agents = v
	} else {
		h.Sessions = v
	}
}

// listOneHost asks one host, within deadline.
func listOneHost(name, linkStatus, verb string, p any, key string, deadline time.Time) hostListing {
	row := hostListing{Host: name, Untrusted: true}
	c, err := dialHost(name, deadline)
	if err == nil {
		defer c.Close()
		var raw json.RawMessage
		if err = c.Call(verb, p, &raw); err != nil {
			err = farError(name, err)
		} else {
			var res map[string]json.RawMessage
			if err = decodeRemote(name, raw, &res); err == nil {
				row.Status = "up"
				row.set(key, res[key])
				return row
			}
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: "internal", Message: err.Error()}
	}
	row.Error = e
	row.Status = e.Code
	if linkStatus != "" && linkStatus != "up" {
		row.Status = linkStatus // the link's own word: unreachable, no_daemon...
	} else if e.Code == "host_unreachable" {
		row.Status = "unreachable"
	}
	return row
}

// linkedHosts are the hosts to list: the daemon's (with their link
// states) when it can say, else the config file's.
func linkedHosts() ([]string, map[string]string) {
	status := map[string]string{}
	var names []string
	if c, err := client.Dial(client.Options{}); err == nil {
		defer c.Close()
		c.SetDeadline(time.Now().Add(farBase))
		var res struct {
			Hosts []struct {
				Name   string `json:"name"`
				Status string `json:"status"`
			} `json:"hosts"`
		}
		if c.Call("list-hosts", nil, &res) == nil {
			for _, h := range res.Hosts {
				if hosts.ValidName(h.Name) && h.Name != hosts.Local {
					names = append(names, h.Name)
					status[h.Name] = h.Status
				}
			}
			return names, status
		}
	}
	if f, err := config.Load(config.Path(os.Getenv)); err == nil {
		for _, n := range f.HostNames() {
			if hosts.ValidName(n) && n != hosts.Local {
				names = append(names, n)
			}
		}
	}
	return names, status
}

// writeAllHostsSessions prints ls --all-hosts: one table, a HOST column
// first; a host that did not answer is a row saying so, its reason under
// the table.
func writeAllHostsSessions(w io.Writer, rows []hostListing) {
	var cells [][]string
	for _, h := range rows {
		if h.Error != nil {
			cells = append(cells, []string{h.Host, "(" + h.Status + ")", "", "", "", "", ""})
			continue
		}
		var ss []sessionRow
		json.Unmarshal(h.Sessions, &ss)
		if len(ss) == 0 {
			cells = append(cells, []string{h.Host, "(no sessions)", "", "", "", "", ""})
		}
		for _, s := range ss {
			cells = append(cells, append([]string{h.Host}, s.cells()...))
		}
	}
	writeTable(w, append([]string{"HOST"}, sessionColumns()...), cells)
	writeHostNotes(w, rows)
}

// writeAllHostsAgents prints list-agents --all-hosts.
func writeAllHostsAgents(w io.Writer, rows []hostListing) {
	var cells [][]string
	var listed []proto.AgentRow // every row, for the footer's count (agents_footer.go)
	for _, h := range rows {
		if h.Error != nil {
			cells = append(cells, []string{h.Host, "(" + h.Status + ")", "", "", "", "", "", "", ""})
			continue
		}
		var as []proto.AgentRow
		json.Unmarshal(h.Agents, &as)
		if len(as) == 0 {
			cells = append(cells, []string{h.Host, "(no agent panes)", "", "", "", "", "", "", ""})
		}
		for _, a := range as {
			listed = append(listed, a)
			cells = append(cells, []string{h.Host, a.Session, short(a.WindowID), a.Name, a.State, a.HarnessID, a.Source, strconv.Itoa(a.Unread), clip(agentNote(a), 50)})
		}
	}
	writeTable(w, []string{"HOST", "SESSION", "ID", "NAME", "STATE", "HARNESS", "SOURCE", "MAIL", "NOTE"}, cells)
	writeHostNotes(w, rows)
	fmt.Fprintf(w, "%s. Address one with -w HOST:SESSION:ID.\n", paneCount(listed))
}

// writeHostNotes says under a table why each silent host did not answer.
func writeHostNotes(w io.Writer, rows []hostListing) {
	for _, h := range rows {
		if h.Error == nil {
			continue
		}
		line := h.Host + ": " + h.Error.Message
		if h.Error.Hint != "" {
			line += " (" + h.Error.Hint + ")"
		}
		fmt.Fprintln(w, escapeControls(line))
	}
}

// runAllHosts is the body of ls/list-agents --all-hosts.
func runAllHosts(ctx *Context, verb, key string, p any) error {
	if str(ctx, "session") != "" {
		return usageError("list one host's session with -s HOST:SESSION, or every host with --all-hosts alone", "--session cannot be combined with --all-hosts")
	}
	rows, err := listAllHosts(ctx, verb, p, key)
	if err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, map[string]any{"type": strings.TrimSuffix(key, "s") + "_list_all_hosts", "hosts": rows})
	}
	if key == "agents" {
		writeAllHostsAgents(ctx.Stdout, rows)
	} else {
		writeAllHostsSessions(ctx.Stdout, rows)
	}
	return nil
}
