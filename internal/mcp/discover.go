package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

// listTTL is how long a client may keep a list this server gave (ttlMs):
// the tools are read from the daemon once and do not change while the
// server runs.
const listTTL = 5 * 60 * 1000

// maxListens bounds the subscriptions/listen streams open at once.
const maxListens = 16

// discover is server/discover: the versions, capabilities and guidance
// a client of the stateless revision asks for before (or instead of)
// anything else.
func (s *Server) discover() *discoverResult {
	return &discoverResult{SupportedVersions: SupportedVersions, Instructions: s.instructions(),
		stateless: stateless{TTLMs: listTTL, CacheScope: "private"}}
}

// complete finishes a result of the stateless revision: every result says
// it is complete and names the server; a list (and discover) says how
// long it may be kept, and only by this user's client ("private": it
// describes this user's daemon).
func (s *Server) complete(result any, method string) any {
	c, ok := result.(completable)
	if !ok {
		return result
	}
	m := c.completion()
	m.ResultType = "complete"
	m.Meta = &resultMeta{ServerInfo: s.serverInfo()}
	switch method {
	case "tools/list", "resources/list", "resources/templates/list", "prompts/list":
		m.TTLMs, m.CacheScope = listTTL, "private"
	}
	return result
}

// listen is subscriptions/listen: a stream of the notifications the client
// opts in to. None of them ever happens here (the tool list does not
// change while the server runs; there are no resources or prompts), so
// the acknowledgment honours none and the stream stays open, sending
// nothing, until the client cancels it (no answer then) or the input ends
// (notifications/cancelled for it, as the server tears it down).
func (s *Server) listen(ctx context.Context, r *request, batch bool) (any, *rpcError) {
	if batch {
		return nil, &rpcError{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: subscriptions/listen cannot be part of a batch"}
	}
	var p struct {
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	if err := json.Unmarshal(r.Params, &p); err != nil || p.Notifications == nil {
		return nil, &rpcError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: subscriptions/listen needs notifications (an object)"}
	}
	s.mu.Lock()
	if s.listens >= maxListens {
		s.mu.Unlock()
		return nil, &rpcError{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: %d subscriptions/listen streams are open, the most this server keeps: cancel one first", maxListens)}
	}
	s.listens++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.listens--
		s.mu.Unlock()
	}()
	var ack acknowledgedParams
	ack.Meta.SubscriptionID = r.ID
	s.write(notify("notifications/subscriptions/acknowledged", ack))
	select {
	case <-ctx.Done():
	case <-s.closing:
		s.write(notify("notifications/cancelled", cancelledParams{RequestID: r.ID, Reason: "the server's input ended"}))
	}
	return noAnswer, nil
}
