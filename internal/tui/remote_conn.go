package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// A session on another host is reached through this machine's daemon:
// each connection the client opens (the stream and the call connection)
// first asks open-host-connection, after which every line on it is the
// far daemon's. The session is drawn here, with this machine's options;
// nothing runs nested.

// DefaultReconnectFor is how long a dropped link is redialled before the
// client gives up on the host.
const DefaultReconnectFor = 3 * time.Minute

// The redial backoff: the first retry soon (a blip), then doubling.
const (
	redialFirst = 250 * time.Millisecond
	redialMax   = 5 * time.Second
)

// OpenHostError is this machine's daemon refusing to open a connection
// to the host (unknown host, link down): its word, not the far one's.
type OpenHostError struct {
	Host string
	Err  error
}

func (e *OpenHostError) Error() string { return e.Err.Error() }
func (e *OpenHostError) Unwrap() error { return e.Err }

// LinkLostError ends an attach to a host whose link dropped and did not
// come back within the bound, when there is no session here to return to.
// The session keeps running on the host.
type LinkLostError struct {
	Host, Session string
	After         time.Duration
	// Why is the last redial's failure, this machine's daemon's words.
	Why string
	// Gone says the session no longer exists there (not_found on redial).
	Gone bool
}

func (e *LinkLostError) Error() string {
	if e.Gone {
		return fmt.Sprintf("the link to host %s dropped, and session %s no longer exists there", e.Host, clean(e.Session))
	}
	return fmt.Sprintf("the link to host %s dropped and did not come back within %s; session %s keeps running there",
		e.Host, shortDuration(e.After), clean(e.Session))
}

// shortDuration writes 3m for 3m0s; other durations as Go does (1.5s).
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		return strings.TrimSuffix(s, "0s")
	}
	return s
}

// remoteHost is the host part of Options.Host: "" for this machine.
func remoteHost(h string) string {
	if h == hosts.Local {
		return ""
	}
	return h
}

// dialTo dials this machine's daemon and, for a host, turns the
// connection into one to that host's daemon.
func dialTo(opt Options, host string) (*client.Client, error) {
	c, err := dial(opt)
	if err != nil || host == "" {
		return c, err
	}
	var res struct {
		Status string `json:"status"`
	}
	c.SetDeadline(time.Now().Add(farSetup))
	if err := c.Call("open-host-connection", proto.OpenHostParams{Host: host}, &res); err != nil {
		c.Close()
		return nil, &OpenHostError{Host: host, Err: err}
	}
	c.SetDeadline(time.Time{})
	return c, nil
}

// farSetup bounds opening a connection to a host and attaching there: a
// wedged link must not hold a redial past its bound for long.
const farSetup = 20 * time.Second

// linkKind is what linkMsg reports.
type linkKind int

const (
	linkDown  linkKind = iota // the link dropped; redialling
	linkRetry                 // a redial failed; still trying
	linkBack                  // attached again on the host
	linkHome                  // gave up; attached to this machine's session left for the host
	linkLost                  // gave up; nothing to return to
)

// linkMsg tells the model about the host link under the attach.
type linkMsg struct {
	kind    linkKind
	host    string
	session string // the far session (linkHome: this machine's)
	attempt int
	left    time.Duration // of the bound, for linkRetry
	err     error         // why (linkDown, linkRetry, linkLost)
}

// refuse answers a request made while the link is down: nothing is sent
// (keys typed into a frozen screen must not land late), and a tagged
// call hears why.
func (c *conns) refuse(r request) {
	if r.tag == "" {
		return
	}
	c.smu.Lock()
	host := c.host
	c.smu.Unlock()
	c.send(replyMsg{tag: r.tag, verb: r.verb, err: proto.Errorf("host_unreachable", "host %s: the link is down; reconnecting", host)})
}

// linkDown starts redialling after the host's link dropped: both
// connections are hung up (they went through the dead link) and the
// screen stays as it was.
func (c *conns) linkDown(err error) {
	c.smu.Lock()
	if c.calls == nil { // already redialling
		c.smu.Unlock()
		return
	}
	c.gen++
	c.calls.end()
	c.calls = nil
	if c.stream != nil {
		c.stream.Close()
	}
	host, session, cols, rows := c.host, c.session, c.cols, c.rows
	c.smu.Unlock()
	c.send(linkMsg{kind: linkDown, host: host, session: session, err: err})
	go c.redial(host, session, cols, rows)
}

// redial tries to attach session on host again, backing off, for the
// bound (Options.ReconnectFor). On success the new connections replace
// the old; otherwise the client goes back to the session it left here,
// or ends.
func (c *conns) redial(host, session string, cols, rows int) {
	bound := c.opt.ReconnectFor
	if bound <= 0 {
		bound = DefaultReconnectFor
	}
	deadline := time.Now().Add(bound)
	wait := redialFirst
	var last error
	for attempt := 1; ; attempt++ {
		t := time.NewTimer(min(wait, max(time.Until(deadline), 0)))
		select {
		case <-c.done:
			t.Stop()
			return
		case <-t.C:
		}
		err := c.reattach(host, session, cols, rows)
		if err == nil {
			return
		}
		last = err
		var nd *client.NoDaemonError
		if errors.As(err, &nd) {
			// This machine's daemon is gone (stopped, or killed): the
			// link went with it, and nothing here starts it again.
			c.send(streamGoneMsg{err: err})
			return
		}
		var pe *proto.Error
		if errors.As(err, &pe) && pe.Code == proto.CodeSessionNotFound && !isOpenHost(err) {
			// The far daemon answered: the session is gone there.
			c.giveUp(host, session, bound, err, true)
			return
		}
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		c.send(linkMsg{kind: linkRetry, host: host, session: session, attempt: attempt, left: left, err: err})
		wait = min(wait*2, redialMax)
	}
	c.giveUp(host, session, bound, last, false)
}

func isOpenHost(err error) bool {
	var oh *OpenHostError
	return errors.As(err, &oh)
}

// reattach opens a call line and a stream to session on host and, unless
// the client ended meanwhile, puts them in place.
func (c *conns) reattach(host, session string, cols, rows int) error {
	line, st, nonce, name, err := openSession(c.opt, host, session, cols, rows)
	if err != nil {
		return err
	}
	c.smu.Lock()
	if c.ended(line, st) {
		return nil
	}
	c.gen++
	gen := c.gen
	c.stream, c.calls, c.host, c.session = st, line, host, name
	c.smu.Unlock()
	c.send(attachedMsg{nonce: nonce, session: name})
	c.send(linkMsg{kind: linkBack, host: host, session: name})
	go c.reader(line)
	go c.readStream(st, gen)
	if host != "" {
		c.watchLocal() // remote_local.go
	}
	return nil
}

// openSession opens a call line and a stream to session on host ("" is
// this machine): what a re-attach and a switch of host both put in place.
func openSession(opt Options, host, session string, cols, rows int) (line *callLine, st *client.Client, nonce, name string, err error) {
	calls, err := dialTo(opt, host)
	if err != nil {
		return nil, nil, "", "", err
	}
	st, nonce, name, quiet, err := attachStream(opt, host, session, cols, rows)
	if err != nil {
		calls.Close()
		return nil, nil, "", "", err
	}
	return newCallLine(calls, quiet), st, nonce, name, nil
}

// ended reports whether the client ended while line and st were being
// opened; if so it closes them and unlocks c.smu, which the caller holds.
func (c *conns) ended(line *callLine, st *client.Client) bool {
	select {
	case <-c.done:
		c.smu.Unlock()
		line.end()
		st.Close()
		return true
	default:
		return false
	}
}

// giveUp ends the redial: back to the session left here when there is
// one (and it still answers), else the attach ends.
func (c *conns) giveUp(host, session string, bound time.Duration, why error, gone bool) {
	c.smu.Lock()
	home, cols, rows := c.home, c.cols, c.rows
	c.smu.Unlock()
	lost := &LinkLostError{Host: host, Session: session, After: bound, Gone: gone}
	if why != nil {
		lost.Why = clean(why.Error())
	}
	if home != "" {
		c.smu.Lock()
		c.home = ""
		c.smu.Unlock()
		if err := c.reattach("", home, cols, rows); err == nil {
			c.send(linkMsg{kind: linkHome, host: host, session: home, err: lost})
			return
		}
	}
	c.send(linkMsg{kind: linkLost, host: host, session: session, err: lost})
}

// SwitchHost re-attaches to session on another host ("" is this
// machine) and focuses window there when it is not "", off the UI
// goroutine. Leaving this machine for a host remembers the session left,
// which a lost link comes back to.
func (c *conns) SwitchHost(host, session, window string, cols, rows int) {
	host = remoteHost(host)
	go func() {
		line, st, nonce, name, err := openSession(c.opt, host, session, cols, rows)
		if err != nil {
			c.send(replyMsg{verb: "attach", err: err})
			return
		}
		c.smu.Lock()
		if c.ended(line, st) {
			return
		}
		if c.host == "" && host != "" {
			c.home = c.session
		} else if host == "" {
			c.home = ""
		}
		oldLine, oldStream := c.calls, c.stream
		c.gen++
		gen := c.gen
		c.stream, c.calls, c.host, c.session, c.cols, c.rows = st, line, host, name, cols, rows
		c.smu.Unlock()
		if oldLine != nil {
			oldLine.end()
		}
		if oldStream != nil {
			oldStream.Close()
		}
		c.send(attachedMsg{nonce: nonce, session: name})
		c.send(linkMsg{kind: linkBack, host: host, session: name})
		go c.reader(line)
		if host != "" {
			c.watchLocal() // remote_local.go
		}
		if window != "" {
			c.Call("focus-window", proto.FocusWindowParams{Session: name, Window: window}, "")
		}
		c.readStream(st, gen)
	}()
}
