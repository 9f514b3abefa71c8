package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The compare view (seed 003, "Comparing the attempts of a fan"): w in a
// review of a fan's pane shows every attempt of the fan, with what each
// changed against the fan's base and its last check (compare-fan).
//
//	j/k, arrows  move
//	enter        review the attempt under the cursor
//	m            mark it (two at most: a third mark drops the oldest)
//	d            diff the two marked attempts: the one marked last against
//	             the one marked first
//	V            a check to run in every attempt (fan verify), typed on the dock
//	K            keep the attempt under the cursor and remove the others,
//	             after y to a question naming each one removed
//	esc, q, w    back to the review
//
// While a check runs the rows are read again every second. The keys are
// fixed (not in [keybindings.review]): the view is a short table. Keys a
// program sends with send-keys never reach the review (leader_keys.go), so
// verify and keep are the person's. Names and commands come from the
// daemon and so from panes: every cell is cleaned before it is drawn.

// compareView is the view's state, inside the review it was opened from.
type compareView struct {
	session string // the session it was opened for
	loaded  bool
	err     string
	c       proto.FanCompare
	cur     int
	marked  []string // sessions, oldest first
	input   *inboxInput
	// confirm is K's questions: the attempts still to confirm, then the
	// call. keep is the attempt kept.
	confirm []string
	keep    string
	gen     int // the tick a refresh is armed for
}

const (
	tagCompare = "review:compare:"
	tagVerify  = "review:verify:"
	tagKeep    = "review:keep:"
)

// compareTickMsg reads the rows again while a check runs.
type compareTickMsg struct{ gen int }

// openCompare is w in the review.
func (m *Model) openCompare() {
	rv := m.review
	rv.compare = &compareView{session: rv.session}
	m.fetchCompare()
}

func (m *Model) fetchCompare() {
	cv := m.review.compare
	m.call("compare-fan", proto.CompareFanParams{FanTargetParams: proto.FanTargetParams{Session: cv.session}}, tagCompare+m.review.window)
}

// compareKey is a key while the view is open.
func (m *Model) compareKey(k tea.Key, name string) tea.Cmd {
	rv := m.review
	cv := rv.compare
	if cv.input != nil {
		switch name {
		case "enter":
			cmd := strings.TrimSpace(string(cv.input.text))
			cv.input = nil
			if cmd == "" {
				m.say("verify: no check given, nothing runs")
				return nil
			}
			m.call("verify-fan", proto.VerifyFanParams{FanTargetParams: proto.FanTargetParams{Session: cv.session}, Command: cmd, NoWait: true}, tagVerify+rv.window)
			m.say("verify: starting %s in every attempt…", cmd)
		case "esc", "ctrl+c":
			cv.input = nil
		default:
			cv.input.edit(k, name)
		}
		return nil
	}
	if len(cv.confirm) > 0 {
		switch name {
		case "y":
			cv.confirm = cv.confirm[1:]
			if len(cv.confirm) == 0 {
				m.call("keep-fan", proto.KeepFanParams{Session: cv.keep, Stash: true}, tagKeep+rv.window)
				m.say("keep: keeping %s and removing the others…", cv.keep)
			}
		default:
			cv.confirm, cv.keep = nil, ""
			m.say("keep: nothing was removed")
		}
		return nil
	}
	n := len(cv.c.Attempts)
	switch name {
	case "esc", "q", "w":
		rv.compare = nil
		m.dock = ""
	case "j", "down":
		cv.cur = min(cv.cur+1, max(n-1, 0))
	case "k", "up":
		cv.cur = max(cv.cur-1, 0)
	case "g", "home":
		cv.cur = 0
	case "G", "end":
		cv.cur = max(n-1, 0)
	case "r":
		m.fetchCompare()
	case "enter":
		if a, ok := cv.at(); ok {
			m.reviewAttempt(a.Session, a.WindowID, "")
		}
	case "m":
		if a, ok := cv.at(); ok {
			cv.mark(a.Session)
		}
	case "d":
		if len(cv.marked) != 2 {
			m.say("compare: mark two attempts with m, then d diffs them")
			return nil
		}
		a := cv.find(cv.marked[1])
		m.reviewAttempt(cv.marked[1], a.WindowID, cv.marked[0])
	case "V":
		cv.input = &inboxInput{label: "check in every attempt (sh -c): ", limit: 4096}
	case "K":
		a, ok := cv.at()
		if !ok {
			return nil
		}
		cv.keep, cv.confirm = a.Session, nil
		for _, o := range cv.c.Attempts {
			if o.Session != a.Session {
				cv.confirm = append(cv.confirm, o.Session)
			}
		}
		if len(cv.confirm) == 0 {
			cv.keep = ""
			m.say("keep: %s is the only attempt: nothing to remove", a.Session)
		}
	}
	return nil
}

func (cv *compareView) at() (proto.FanRow, bool) {
	if cv.cur < 0 || cv.cur >= len(cv.c.Attempts) {
		return proto.FanRow{}, false
	}
	return cv.c.Attempts[cv.cur], true
}

func (cv *compareView) find(session string) proto.FanRow {
	for _, a := range cv.c.Attempts {
		if a.Session == session {
			return a
		}
	}
	return proto.FanRow{Session: session}
}

// mark toggles a mark; a third drops the oldest.
func (cv *compareView) mark(session string) {
	for i, s := range cv.marked {
		if s == session {
			cv.marked = append(cv.marked[:i], cv.marked[i+1:]...)
			return
		}
	}
	cv.marked = append(cv.marked, session)
	if len(cv.marked) > 2 {
		cv.marked = cv.marked[1:]
	}
}

// reviewAttempt reviews one attempt (against another, when named), and w
// comes back to the comparison.
func (m *Model) reviewAttempt(session, window, against string) {
	if window == "" {
		m.say("compare: %s has no pane to review (its session is closed)", session)
		return
	}
	back := m.review.compare
	back.input, back.confirm = nil, nil
	m.review = &reviewView{session: session, window: window, name: session, against: against, lastCompare: back}
	m.fetchReview()
}

// compareReply takes compare-fan, verify-fan and keep-fan's answers.
func (m *Model) compareReply(tag string, r replyMsg) tea.Cmd {
	rv := m.review
	cv := rv.compare
	switch tag {
	case tagCompare:
		if cv == nil {
			return nil
		}
		if r.err != nil {
			msg := clean(r.err.Error())
			if strings.Contains(msg, "not_worktree") || strings.Contains(msg, "in no worktree") || strings.Contains(msg, "in no fan") {
				rv.compare = nil
				m.say("review: w compares the attempts of a fan; this pane is in no fan")
				return nil
			}
			cv.err = msg
			return nil
		}
		var c proto.FanCompare
		if err := json.Unmarshal(r.raw, &c); err != nil {
			cv.err = "the daemon's comparison could not be read: " + err.Error()
			return nil
		}
		if !cv.loaded { // the cursor starts on the attempt under review
			for i, a := range c.Attempts {
				if a.Session == cv.session {
					cv.cur = i
				}
			}
		}
		cv.c, cv.loaded, cv.err = c, true, ""
		cv.cur = min(cv.cur, max(len(c.Attempts)-1, 0))
		if cv.running() {
			cv.gen++
			gen := cv.gen
			return tea.Tick(time.Second, func(time.Time) tea.Msg { return compareTickMsg{gen: gen} })
		}
	case tagVerify:
		if r.err != nil {
			m.say("verify: %s", clean(r.err.Error()))
			return nil
		}
		m.say("verify: the check runs in every attempt; a pass closes its window, a failure keeps it")
		if cv != nil {
			m.fetchCompare()
		}
	case tagKeep:
		if r.err != nil {
			m.say("keep: %s", clean(r.err.Error()))
			return nil
		}
		var res proto.FanKept
		_ = json.Unmarshal(r.raw, &res)
		var gone []string
		for _, x := range res.Removed {
			if x.Error == "" {
				gone = append(gone, x.Session)
			}
		}
		m.say("keep: kept %s; removed %s (their branches stay, their changes are in git stash)", res.Kept, strings.Join(gone, ", "))
		if cv == nil {
			return nil
		}
		cv.keep, cv.marked = "", nil
		if rv.session != res.Kept || rv.against != "" {
			// The review under the comparison was of an attempt now gone
			// (or against one): it becomes the kept attempt's.
			kept := cv.find(res.Kept)
			cv.session = res.Kept
			m.review = &reviewView{session: res.Kept, window: kept.WindowID, name: res.Kept, compare: cv}
			m.fetchReview()
		}
		m.fetchCompare()
	}
	return nil
}

// running says whether a check still runs in an attempt.
func (cv *compareView) running() bool {
	for _, a := range cv.c.Attempts {
		if a.Check != nil && a.Check.Status == "running" {
			return true
		}
	}
	return false
}

// onCompareTick reads the rows again, while the view is open.
func (m *Model) onCompareTick(msg compareTickMsg) tea.Cmd {
	if m.review == nil || m.review.compare == nil || msg.gen != m.review.compare.gen {
		return nil
	}
	m.fetchCompare()
	return nil
}

// compareQuestion is K's question for the next attempt to remove.
func (cv *compareView) question() string {
	return fmt.Sprintf(" keep %s: remove %s (its worktree and session; uncommitted changes go to git stash, its branch stays)? y removes it, any other key keeps everything",
		clean(cv.keep), clean(cv.confirm[0]))
}
