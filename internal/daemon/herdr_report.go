package daemon

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/procstat"
	"github.com/tuios/tuios/internal/proto"
)

// The report methods (coordination spec §18.4). A report enters the
// arbiter at the report rank (SourceReport), the same as set-agent-state:
// a herdr reporter is the agent speaking for itself.

const (
	// herdrCrashAge is how old the last report must be before a pane
	// whose reporter is gone and whose shell is back clears to none.
	herdrCrashAge = 2 * time.Second
	// herdrBurst and herdrRate bound one pane's metadata and
	// notifications: a burst of 20, then 5 a second.
	herdrBurst = 20
	herdrRate  = 5
	// herdrMaxTokens caps the tokens of one metadata report.
	herdrMaxTokens = 16
)

var herdrOK = map[string]any{"type": "ok"}

// reportTarget checks that the caller runs in a pane and that pane_id
// names that pane: a pane may report only for itself (grants do not
// limit self-reports). It returns the caller's window.
func (call *herdrCall) reportTarget(p herdrParams) (*Window, *herdrErr) {
	paneID, herr := p.str("pane_id", true)
	if herr != nil {
		return nil, herr
	}
	own := call.place()
	if own == "" {
		return nil, herdrErrorf(proto.CodeForbidden, "the caller runs in no pane of this daemon")
	}
	s := call.h.s
	s.mu.Lock()
	w := s.windows[own]
	s.mu.Unlock()
	if w == nil {
		return nil, herdrErrorf(proto.CodeForbidden, "the caller runs in no pane of this daemon")
	}
	if !herdrNamesWindow(paneID, w) {
		if ws, _, ok := strings.Cut(paneID, ":"); ok && strings.HasPrefix(ws, "w") && s.herdrSession(nil, ws) == nil {
			return nil, herdrErrorf("pane_not_found", "no workspace "+clipText(ws, 64))
		}
		return nil, herdrErrorf(proto.CodeForbidden, "a pane may report only for itself")
	}
	return w, nil
}

// harnessOf is tuios's id for a reporter's agent label: a known harness's
// canonical id, else the label lowercased, spaces as '-', only
// [a-z0-9_-], at most 32 bytes, trimmed of '-' and '_'.
func (h *herdrSock) harnessOf(label string) string {
	l := strings.ToLower(strings.TrimSpace(label))
	var b strings.Builder
	for _, c := range l {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		}
		if b.Len() >= 32 {
			break
		}
	}
	id := strings.Trim(b.String(), "-_")
	if reg := h.s.tracker.Detector().Registry(); reg != nil && id != "" {
		if m, ok := reg.Lookup(id); ok {
			return m.ID
		}
	}
	return id
}

// seqTake applies the seq rule for one report: a seq not above the last
// from the same source for the pane is dropped (ok, applied nothing).
// meta reports have their own mark and are also dropped at or below the
// source's last state seq. A report without seq always passes.
func (h *herdrSock) seqTake(pane, source string, seq uint64, has, meta bool) bool {
	if !has {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := herdrSeqKey{pane: pane, source: source, meta: meta}
	if last, ok := h.seq[key]; ok && seq <= last {
		return false
	}
	if meta {
		if last, ok := h.seq[herdrSeqKey{pane: pane, source: source}]; ok && seq <= last {
			return false
		}
	}
	if len(h.seq) >= herdrSeqTable {
		clear(h.seq)
	}
	h.seq[key] = seq
	return true
}

// reportCommon reads what every report method carries: the pane, source
// and agent, and whether the seq lets it through.
func (call *herdrCall) reportCommon(p herdrParams, needAgent bool) (w *Window, source, agent string, pass bool, herr *herdrErr) {
	if w, herr = call.reportTarget(p); herr != nil {
		return
	}
	if source, herr = p.str("source", true); herr != nil {
		return
	}
	if agent, herr = p.str("agent", needAgent); herr != nil {
		return
	}
	seq, has, herr := p.u64("seq")
	if herr != nil {
		return
	}
	pass = call.h.seqTake(w.ID, source, seq, has, false)
	return
}

func (h *herdrSock) reportAgent(call *herdrCall, p herdrParams) (any, *herdrErr) {
	state, herr := p.str("state", true)
	if herr != nil {
		return nil, herr
	}
	switch state {
	case "idle", "working", "blocked", "unknown":
	default:
		return nil, herdrErrorf(proto.CodeInvalidParams, "unknown state "+strconv.Quote(clipText(state, 64))+" (idle, working, blocked or unknown)")
	}
	msg, herr := p.str("message", false)
	if herr != nil {
		return nil, herr
	}
	sessionID, herr := p.str("agent_session_id", false)
	if herr != nil {
		return nil, herr
	}
	w, source, agent, pass, herr := call.reportCommon(p, true)
	if herr != nil {
		return nil, herr
	}
	if !pass || state == "unknown" {
		return herdrOK, nil
	}
	harness := h.harnessOf(agent)
	snap := h.s.tracker.Arbiter().Get(w.ID)
	if h.yields(w.ID, source, harness, snap) {
		if sessionID != "" {
			w.pane.SetSession(harness, sessionID)
		}
		return herdrOK, nil
	}
	if state == "working" && h.crushHoldsDialog(w, harness, snap) {
		return herdrOK, nil // Crush's dialog is still up: it stays needs_input
	}
	r := agentstate.Report{Source: agentstate.SourceReport, Harness: harness, SessionID: sessionID}
	if sessionID != "" {
		r.HarnessPID = call.peer
	}
	switch state {
	case "working":
		r.State, r.Message = agentstate.Working, msg
	case "blocked":
		r.State, r.Message = agentstate.NeedsInput, msg
		r.Kind = herdrBlockedKind(harness, msg)
		if r.Message == "" {
			r.Message = "waits for you"
			if r.Kind == agentstate.KindApproval {
				r.Message = "waits for approval"
			}
		}
	case "idle":
		// A finished turn is done; an agent that was at rest stays idle.
		// herdr's idle message is not shown.
		r.State = agentstate.Idle
		if snap.State == agentstate.Working || snap.State == agentstate.NeedsInput {
			r.State = agentstate.Done
		}
	}
	res := w.pane.Report(r, "")
	if !res.Applied {
		return nil, herdrErrorf("report_failed", "the report was not applied: "+string(res.Reason))
	}
	h.noteReport(w, call.peer, harness)
	return herdrOK, nil
}

// yields says whether a report from herdr's own hook scripts (a source
// starting "herdr:") steps aside: a report from a tuios integration (not
// through this socket) holds the pane for the same harness. Crush's own
// reports never yield.
func (h *herdrSock) yields(pane, source, harness string, snap agentstate.Snapshot) bool {
	if !strings.HasPrefix(source, "herdr:") || !snap.Claimed || snap.Source != agentstate.SourceReport || snap.Harness != harness {
		return false
	}
	h.mu.Lock()
	w := h.watch[pane]
	h.mu.Unlock()
	// The pane is ours when this socket's last applied report is what
	// stamped its state.
	return w == nil || w.version != snap.Version
}

// herdrBlockedKind says what a blocked report waits for: for Crush a
// message starting "Permission" (or none) is an approval and any other a
// question; for other agents the engine guesses from the message.
func herdrBlockedKind(harness, msg string) agentstate.Kind {
	if harness != "crush" {
		return agentstate.KindNone
	}
	if msg == "" || strings.HasPrefix(msg, "Permission") {
		return agentstate.KindApproval
	}
	return agentstate.KindQuestion
}

func (h *herdrSock) reportSession(call *herdrCall, p herdrParams) (any, *herdrErr) {
	sessionID, herr := p.str("agent_session_id", false)
	if herr != nil {
		return nil, herr
	}
	w, _, agent, pass, herr := call.reportCommon(p, false)
	if herr != nil {
		return nil, herr
	}
	if !pass {
		return herdrOK, nil
	}
	if agent == "" || sessionID == "" {
		return nil, herdrErrorf(proto.CodeInvalidParams, "report_agent_session needs agent and agent_session_id")
	}
	res := w.pane.SetSession(h.harnessOf(agent), sessionID)
	if !res.Applied && res.Reason != agentstate.ReasonNone {
		return nil, herdrErrorf("report_failed", "the session was not recorded: "+string(res.Reason))
	}
	return herdrOK, nil
}

func (h *herdrSock) releaseAgent(call *herdrCall, p herdrParams) (any, *herdrErr) {
	w, _, _, pass, herr := call.reportCommon(p, false)
	if herr != nil {
		return nil, herr
	}
	if !pass {
		return herdrOK, nil
	}
	h.stopWatch(w.ID)
	// The seq mark stays: a late report from before the release is
	// dropped and cannot bring the agent back.
	res := w.pane.Report(agentstate.Report{State: agentstate.None, Source: agentstate.SourceReport}, "")
	if !res.Applied {
		return nil, herdrErrorf("report_failed", "the release was not applied: "+string(res.Reason))
	}
	return herdrOK, nil
}

// allow takes one token from the pane's metadata/notification bucket.
func (h *herdrSock) allow(pane string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.rate[pane]
	if b == nil {
		b = &herdrBucket{tokens: herdrBurst, at: now}
		h.rate[pane] = b
	}
	return b.take(now)
}

// herdrBucket is a token bucket: herdrBurst tokens, refilled at
// herdrRate a second, computed from the time of each take (no timer).
type herdrBucket struct {
	tokens float64
	at     time.Time
}

func (b *herdrBucket) take(now time.Time) bool {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(herdrBurst, b.tokens+d.Seconds()*herdrRate)
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (h *herdrSock) reportMetadata(call *herdrCall, p herdrParams) (any, *herdrErr) {
	var tokens map[string]*string
	if p.has("tokens") {
		if err := json.Unmarshal(p["tokens"], &tokens); err != nil {
			return nil, herdrBadType("tokens", "a map of strings")
		}
		if len(tokens) > herdrMaxTokens {
			return nil, herdrErrorf(proto.CodeInvalidParams, "tokens holds more than 16 keys")
		}
	}
	ttl, hasTTL, herr := p.u64("ttl_ms")
	if herr != nil {
		return nil, herr
	}
	if hasTTL && (ttl < 1 || ttl > 86400000) {
		return nil, herdrErrorf(proto.CodeInvalidParams, "ttl_ms must be 1 to 86400000")
	}
	title, herr := p.str("title", false)
	if herr != nil {
		return nil, herr
	}
	clearTitle, herr := p.boolean("clear_title")
	if herr != nil {
		return nil, herr
	}
	w, herr := call.reportTarget(p)
	if herr != nil {
		return nil, herr
	}
	source, herr := p.str("source", true)
	if herr != nil {
		return nil, herr
	}
	seq, has, herr := p.u64("seq")
	if herr != nil {
		return nil, herr
	}
	if !h.allow(w.ID, h.s.clock.Now()) {
		return nil, herdrErrorf(proto.CodeRateLimited, "this pane sent metadata and notifications faster than 5 a second")
	}
	if !h.seqTake(w.ID, source, seq, has, true) {
		return herdrOK, nil
	}
	u := agentstate.MetaUpdate{Set: map[string]string{}}
	if hasTTL {
		u.TTL = time.Duration(ttl) * time.Millisecond
	}
	switch {
	case clearTitle || p.has("title") && strings.TrimSpace(title) == "":
		u.Clear = append(u.Clear, "title")
	case title != "":
		u.Set["title"] = title
	}
	for k, v := range tokens {
		if !herdrTokenName(k) {
			continue // skipped, as herdr skips a name it does not take
		}
		k = strings.ToLower(k)
		if v == nil || strings.TrimSpace(*v) == "" {
			u.Clear = append(u.Clear, k)
		} else {
			u.Set[k] = *v
		}
	}
	// A reserved or invalid name is skipped, the rest written.
	for range herdrMaxTokens + 2 {
		_, err := w.pane.SetMeta(u)
		me, ok := err.(*agentstate.MetaError)
		if !ok {
			break
		}
		delete(u.Set, me.Key)
		u.Clear = deleteString(u.Clear, me.Key)
	}
	return herdrOK, nil
}

func deleteString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// herdrTokenName is herdr's token name rule: ^[A-Za-z0-9_-]{1,32}$.
func herdrTokenName(k string) bool {
	if k == "" || len(k) > 32 {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (h *herdrSock) notificationShow(call *herdrCall, p herdrParams) (any, *herdrErr) {
	title, herr := p.str("title", false)
	if herr != nil {
		return nil, herr
	}
	body, herr := p.str("body", false)
	if herr != nil {
		return nil, herr
	}
	if strings.TrimSpace(title) == "" {
		return nil, herdrErrorf(proto.CodeInvalidParams, "notification.show needs a title")
	}
	own := call.place()
	if own == "" {
		return nil, herdrErrorf(proto.CodeForbidden, "the caller runs in no pane of this daemon")
	}
	if !h.allow(own, h.s.clock.Now()) {
		return nil, herdrErrorf(proto.CodeRateLimited, "this pane sent metadata and notifications faster than 5 a second")
	}
	h.s.mu.Lock()
	w := h.s.windows[own]
	sess := ""
	if w != nil {
		sess = w.session.Name
	}
	h.s.mu.Unlock()
	msg := title
	if body != "" {
		msg += ": " + body
	}
	h.s.hub.publish(event{Type: "notification", Session: sess, Window: own, Message: clipText(msg, 512)})
	return herdrOK, nil
}

// herdrWatch is one pane's crash watch: the pane clears to none when it
// is back at its shell prompt, the last report is over two seconds old
// and no recorded reporter process still runs. It sleeps on the pane's
// output (the shell's prompt is output) and, when only the age is
// missing, on one timer of the daemon's clock (a test's fake clock moves
// it); nothing ticks.
type herdrWatch struct {
	h       *herdrSock
	w       *Window
	procs   map[int]uint64 // pid → start time (0: unknown)
	last    time.Time
	harness string
	version uint64 // the pane's snapshot version this socket's report made
	// due is when the armed age timer fires, by the daemon's clock (zero
	// when none is armed): tests on a fake clock wait for it before
	// moving time.
	due  time.Time
	quit chan struct{}
	once sync.Once
}

func (x *herdrWatch) stop() { x.once.Do(func() { close(x.quit) }) }

// noteReport records the reporting process (and, for a short-lived hook,
// the first non-shell ancestor below the pane's shell) and starts the
// pane's watch if it is not running.
func (h *herdrSock) noteReport(w *Window, peer int, harness string) {
	snap := h.s.tracker.Arbiter().Get(w.ID)
	procs := reporterProcs(peer, w.proc.Pid())
	h.mu.Lock()
	if h.ln == nil { // the socket closed: the daemon is stopping
		h.mu.Unlock()
		return
	}
	x := h.watch[w.ID]
	if snap.State == agentstate.None {
		if x != nil {
			delete(h.watch, w.ID)
			x.stop()
		}
		h.mu.Unlock()
		return
	}
	start := x == nil
	if start {
		x = &herdrWatch{h: h, w: w, procs: map[int]uint64{}, quit: make(chan struct{})}
		h.watch[w.ID] = x
	}
	for pid, st := range procs {
		x.procs[pid] = st
	}
	x.last, x.harness, x.version = h.s.clock.Now(), harness, snap.Version
	if start {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if start {
		go x.run()
	}
}

func (h *herdrSock) stopWatch(pane string) {
	h.mu.Lock()
	x := h.watch[pane]
	delete(h.watch, pane)
	h.mu.Unlock()
	if x != nil {
		x.stop()
	}
}

func (x *herdrWatch) run() {
	defer x.h.wg.Done()
	defer func() {
		x.h.mu.Lock()
		if x.h.watch[x.w.ID] == x {
			delete(x.h.watch, x.w.ID)
		}
		x.h.mu.Unlock()
	}()
	// The age timer runs on the daemon's clock. Its callback only nudges
	// fire (a fake clock may call it on the advancing goroutine); a stale
	// nudge from an earlier timer costs one more look.
	fire := make(chan struct{}, 1)
	var timer agentstate.Timer
	var armed time.Time // when timer fires: the age rule's deadline
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		x.w.mu.Lock()
		gen := x.w.outputGen
		x.w.mu.Unlock()
		due, done := x.check()
		if done {
			return
		}
		// The deadline is the last report's time plus the age, whenever
		// it is looked at: an armed timer for it stays armed (a look
		// woken by output in between must not push it back by the time
		// the look took), and one already past is looked at again now.
		if !due.Equal(armed) {
			if timer != nil {
				timer.Stop()
				timer = nil
			}
			armed = due
			if !due.IsZero() {
				wait := due.Sub(x.h.s.clock.Now())
				if wait <= 0 {
					armed = time.Time{}
					continue
				}
				timer = x.h.s.clock.AfterFunc(wait, func() {
					select {
					case fire <- struct{}{}:
					default:
					}
				})
			}
			x.h.mu.Lock()
			x.due = due
			x.h.mu.Unlock()
		}
		select {
		case <-gen:
		case <-fire:
		case <-x.w.exitCh:
			return
		case <-x.quit:
			return
		case <-x.h.s.done:
			return
		}
	}
}

// check looks once: done when the pane was cleared (here or by anyone
// else); otherwise when the age rule may hold, by the daemon's clock
// (zero: wait for the pane's next output).
func (x *herdrWatch) check() (due time.Time, done bool) {
	snap := x.h.s.tracker.Arbiter().Get(x.w.ID)
	if snap.State == agentstate.None {
		return time.Time{}, true
	}
	fg, err := x.w.proc.ForegroundPgrp()
	if err != nil || fg != x.w.proc.Pid() {
		return time.Time{}, false // something runs in the foreground: it may be the agent
	}
	x.h.mu.Lock()
	last := x.last
	procs := make(map[int]uint64, len(x.procs))
	for pid, st := range x.procs {
		procs[pid] = st
	}
	x.h.mu.Unlock()
	for pid, st := range procs {
		if procAlive(pid, st) {
			return time.Time{}, false
		}
	}
	if due := last.Add(herdrCrashAge); x.h.s.clock.Now().Before(due) {
		return due, false
	}
	// Only a state a report made is cleared: a screen prompt or a person's
	// note that took the pane since stays.
	if snap.Claimed && snap.Source == agentstate.SourceReport {
		x.w.pane.Report(agentstate.Report{State: agentstate.None, Source: agentstate.SourceReport}, "")
	}
	return time.Time{}, true
}

// isShellName says whether a program counts as a shell, not a reporter.
func isShellName(comm string) bool {
	switch comm {
	case "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu", "elvish", "xonsh", "pwsh", "ash":
		return true
	}
	return false
}

// reporterProcs is the reporter (peer) and the first non-shell ancestor
// between it and the pane's shell: a hook that exits at once leaves the
// agent that ran it recorded.
func reporterProcs(peer, shell int) map[int]uint64 {
	out := map[int]uint64{}
	if peer <= 1 || peer == shell {
		return out
	}
	out[peer] = procStart(peer)
	for pid, i := procstat.Parent(peer), 0; pid > 1 && pid != shell && i < 64; pid, i = procstat.Parent(pid), i+1 {
		if !isShellName(procComm(pid)) {
			out[pid] = procStart(pid)
			break
		}
	}
	return out
}

// procStart is a process's start time from /proc (0 where unreadable):
// with it a recycled pid is not taken for the reporter.
func procStart(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	if f[0] == "Z" || f[0] == "X" {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

func procComm(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// procAlive says whether the recorded process still runs: a zombie or a
// pid now used by a later process does not.
func procAlive(pid int, start uint64) bool {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true // no /proc (darwin): the kill probe is all there is
	}
	st := procStart(pid)
	return st != 0 && (start == 0 || st == start)
}
