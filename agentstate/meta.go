package agentstate

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of agent metadata.
const (
	maxMetaPerCall  = 16
	maxMetaPerPane  = 32
	maxMetaKey      = 24
	maxMetaValue    = 80
	MaxMetaTTL      = 24 * time.Hour
	metaReservedKey = "now prompt subagents"
)

// MetaUpdate sets and clears a pane's metadata: short facts an agent
// states about itself (its model, context use, cost) that are shown beside
// its state and never change it.
type MetaUpdate struct {
	Set   map[string]string // keys to write
	Clear []string          // keys to remove
	// ClearAll removes every key before Set is written.
	ClearAll bool
	// TTL makes the keys written expire; zero keeps them. A key written
	// again with the same value renews its TTL only when less than half
	// of it remains, so a status line that repeats itself writes nothing.
	TTL time.Duration
}

// MetaResult says what an update did.
type MetaResult struct {
	Changed   bool // a reader sees something new
	Truncated bool // a value was cut to 80 bytes
}

// MetaError refuses an update; nothing of it is written.
type MetaError struct {
	Key    string // the key refused; "" when the whole update is
	Reason string

	update bool // the refusal is about the update, not one key
}

func (e *MetaError) Error() string {
	if e.update {
		return "agentstate: meta update: " + e.Reason
	}
	return "agentstate: meta key " + `"` + e.Key + `": ` + e.Reason
}

// Code is invalid_params.
func (e *MetaError) Code() Code { return CodeInvalidParams }

// Hint says what a key may be.
func (e *MetaError) Hint() string {
	return "keys are 1-24 characters of a-z, 0-9, _ and -, starting with a letter; now, prompt and subagents are the engine's own; at most 16 a call and 32 a pane"
}

type metaValue struct {
	v     string
	until time.Time // zero: no expiry
	ttl   time.Duration
}

func validMetaKey(k string) bool {
	if k == "" || len(k) > maxMetaKey || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// cleanMetaValue turns control characters into spaces and cuts to 80
// bytes at a rune boundary.
func cleanMetaValue(v string) (string, bool) {
	v = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, v)
	if len(v) <= maxMetaValue {
		return v, false
	}
	n := maxMetaValue
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return v[:n], true
}

// SetMeta applies an update to a pane's metadata. It refuses the whole
// update (a *MetaError) for a bad or reserved key, more than 16 keys, or a
// pane that would hold more than 32.
func (a *Arbiter) SetMeta(paneID string, u MetaUpdate) (MetaResult, error) {
	if len(u.Set)+len(u.Clear) > maxMetaPerCall {
		return MetaResult{}, &MetaError{Reason: "more than 16 keys in one update", update: true}
	}
	if u.TTL < 0 || u.TTL > MaxMetaTTL {
		return MetaResult{}, &MetaError{Reason: "the TTL is more than a day", update: true}
	}
	for k := range u.Set {
		if !validMetaKey(k) {
			return MetaResult{}, &MetaError{Key: k, Reason: "not a key"}
		}
		if strings.Contains(" "+metaReservedKey+" ", " "+k+" ") {
			return MetaResult{}, &MetaError{Key: k, Reason: "reserved for the engine"}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.get(paneID)
	now := a.clock.Now()
	p.pruneMeta(now)
	next := make(map[string]metaValue, len(p.meta)+len(u.Set))
	if !u.ClearAll {
		for k, v := range p.meta {
			next[k] = v
		}
	}
	for _, k := range u.Clear {
		delete(next, k)
	}
	var res MetaResult
	for k, raw := range u.Set {
		v, cut := cleanMetaValue(raw)
		res.Truncated = res.Truncated || cut
		mv := metaValue{v: v, ttl: u.TTL}
		if u.TTL > 0 {
			mv.until = now.Add(u.TTL)
			if old, ok := next[k]; ok && old.v == v && old.ttl == u.TTL && old.until.Sub(now) > u.TTL/2 {
				mv.until = old.until // plenty left: renewing would be a write nobody sees
			}
		}
		next[k] = mv
	}
	if len(next) > maxMetaPerPane {
		return MetaResult{}, &MetaError{Reason: "the pane would hold more than 32 keys", update: true}
	}
	res.Changed = !sameMeta(p.meta, next)
	p.meta = next
	if res.Changed {
		a.bump(p)
	}
	return res, nil
}

func sameMeta(a, b map[string]metaValue) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || w.v != v.v || w.until != v.until {
			return false
		}
	}
	return true
}

// pruneMeta drops expired keys; reads skip them too, so no timer is needed.
func (p *pane) pruneMeta(now time.Time) {
	for k, v := range p.meta {
		if !v.until.IsZero() && !now.Before(v.until) {
			delete(p.meta, k)
		}
	}
}

// metaView is the live keys, for a snapshot.
func (p *pane) metaView(now time.Time) map[string]string {
	if len(p.meta) == 0 {
		return nil
	}
	out := make(map[string]string, len(p.meta))
	for k, v := range p.meta {
		if v.until.IsZero() || now.Before(v.until) {
			out[k] = v.v
		}
	}
	return out
}
