package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// tuios_events bounds.
const (
	defaultWaitMS = 30000
	maxWaitMS     = 120000
	defaultEvents = 100
	maxEvents     = 1000
	burst         = 250 * time.Millisecond
)

// events subscribes on c and collects: it waits up to wait_ms for a first
// event, then takes what follows within 250 ms, up to max_events.
func (s *Server) events(ctx context.Context, c *client.Client, args arguments) (json.RawMessage, error) {
	for k := range args {
		switch k {
		case "after_seq", "boot_id", "types", "wait_ms", "max_events", "session":
		default:
			return nil, &toolError{Code: proto.CodeInvalidParams, Message: fmt.Sprintf("tuios_events takes no argument %q", k)}
		}
	}
	waitMS, err := intArg(args, "wait_ms", defaultWaitMS, 0, maxWaitMS)
	if err != nil {
		return nil, err
	}
	max, err := intArg(args, "max_events", defaultEvents, 1, maxEvents)
	if err != nil {
		return nil, err
	}
	after, err := intArg(args, "after_seq", 0, 0, 1<<53)
	if err != nil {
		return nil, err
	}
	sub := proto.SubscribeParams{AfterSeq: int(after), Session: args.str("session"), BootID: args.str("boot_id")}
	var types []string
	if raw, ok := args["types"]; ok {
		var list []*string
		if string(raw) == "null" || json.Unmarshal(raw, &list) != nil {
			return nil, &toolError{Code: proto.CodeInvalidParams, Message: "types must be a list of event types"}
		}
		for _, x := range list {
			if x == nil {
				return nil, &toolError{Code: proto.CodeInvalidParams, Message: "types must be a list of event types"}
			}
			types = append(types, *x)
		}
		sub.Types = types
	}
	var ack proto.Subscribed
	if err := c.Call("subscribe", sub, &ack); err != nil {
		return nil, err
	}
	lastSeq := int64(ack.AttentionSeq)
	if after > lastSeq {
		lastSeq = after
	}
	res := eventsResult{Type: "events", Events: []json.RawMessage{}, BootID: ack.BootID, Resync: ack.Resync != nil && *ack.Resync}
	deadline := time.Now().Add(time.Duration(waitMS) * time.Millisecond)
	for int64(len(res.Events)) < max && ctx.Err() == nil {
		c.SetDeadline(deadline)
		var ev json.RawMessage
		if err := c.Next(&ev); err != nil || ev[0] != '{' {
			break // the deadline passed, or the daemon hung up
		}
		// Events are relayed as the daemon sent them; the type and the
		// Inbox seq are all this reads of them.
		var head eventHead
		json.Unmarshal(ev, &head) // a member of another type is not read
		if types == nil && (head.Type == "agent-activity" || head.Type == "output") {
			continue
		}
		if n := int64(head.Item.Seq); n > lastSeq {
			lastSeq = n
		}
		if len(res.Events) == 0 {
			deadline = time.Now().Add(burst)
		}
		res.Events = append(res.Events, ev)
	}
	res.LastSeq = lastSeq
	return json.Marshal(res)
}

// eventsResult is tuios_events' result.
type eventsResult struct {
	Type    string            `json:"type"` // events
	Events  []json.RawMessage `json:"events"`
	LastSeq int64             `json:"last_seq"`
	BootID  string            `json:"boot_id"`
	Resync  bool              `json:"resync,omitempty"`
}

// eventHead is what tuios_events reads of an event: its type, and the
// seq of the Inbox item an attention event carries.
type eventHead struct {
	Type string `json:"type"`
	Item struct {
		Seq float64 `json:"seq"`
	} `json:"item"`
}

// intArg reads an integer argument with a default and bounds.
func intArg(args arguments, name string, dflt, min, max int64) (int64, error) {
	if args.null(name) {
		return dflt, nil
	}
	n, ok := args.number(name)
	if !ok {
		return 0, &toolError{Code: proto.CodeInvalidParams, Message: name + " must be an integer"}
	}
	v, err := n.Int64()
	if err != nil || v < min || v > max {
		return 0, &toolError{Code: proto.CodeInvalidParams, Message: fmt.Sprintf("%s must be an integer from %d to %d", name, min, max)}
	}
	return v, nil
}
