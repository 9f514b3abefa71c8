package tui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// Prefix O goes to the newest finished turn the person has not seen
// (an open Done item of this machine), switching session and workspace
// as enter on an Inbox row does; O again, without the prefix, goes to
// the next older one. Going there is seeing it, so the daemon may close
// the item at once: the run remembers the items it went to rather than
// counting places in a list that shrinks under it.

// newestRun is a run of prefix O and O again.
type newestRun struct {
	armed   bool            // the key after prefix O: O again needs no prefix
	visited map[string]bool // items this run went to
}

// mailKey runs the bindings this file and mail_thread.go own (prefix M,
// prefix O, O again) before the key reaches onKey; ok is false for any
// other key, which then goes on as usual.
func (m *Model) mailKey(k tea.Key) (cmd tea.Cmd, ok bool) {
	if m.clock.Now().Before(m.dropUntil) {
		return nil, false
	}
	name := keyName(k)
	act := m.keys.action[name]
	if m.newest.armed {
		m.newest.armed = false
		if !m.prefix && act == ActNewest {
			m.askNewest()
			return nil, true
		}
	}
	if !m.prefix || (act != ActMail && act != ActNewest) {
		if m.prefix || name != m.keys.prefix {
			m.newest.visited = nil // any other key ends the run
		}
		return nil, false
	}
	m.prefix, m.oldestArmed, m.oldestAt = false, false, 0
	m.railOn = false
	if act == ActMail {
		m.newest.visited = nil
		m.openMail() // mail_thread.go
		return nil, true
	}
	m.askNewest() // prefix O again also goes on to the next older
	return nil, true
}

// askNewest lists the open Done items; newestReply goes to one.
func (m *Model) askNewest() {
	m.call("list-attention", proto.ListAttentionParams{Kinds: []string{"finished"}, Host: "local"}, "newest")
}

// newestReply goes to the newest finished turn this run has not been to.
func (m *Model) newestReply(r replyMsg) {
	if r.err != nil {
		m.say("inbox: %s", r.err.Error())
		return
	}
	var res struct {
		Items []item `json:"items"`
	}
	json.Unmarshal(r.raw, &res)
	var best item
	found := false
	for _, it := range res.Items {
		if it.Kind != "finished" || it.Host != "" || it.SnoozedUntil != 0 || m.newest.visited[it.ID] {
			continue
		}
		if !found || it.Since > best.Since {
			best, found = it, true
		}
	}
	if !found {
		if len(m.newest.visited) > 0 {
			m.say("no older finished turn you have not seen")
		} else {
			m.say("no finished turn you have not seen")
		}
		return
	}
	if m.newest.visited == nil {
		m.newest.visited = map[string]bool{}
	}
	m.newest.visited[best.ID] = true
	m.newest.armed = true
	m.inbox = nil
	m.goTo(best.Session, best.Window) // inbox.go: switches session when it is another one's
	said := clean(best.Summary)
	if said != "" { // a turn that ended saying nothing (a hook's Stop) gets no dangling colon
		said = ": " + said
	}
	m.say("%s finished%s (O again: the next older)", clean(firstOf(best.Name, best.Window)), said)
}
