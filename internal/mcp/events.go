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
func (s *Server) events(ctx context.Context, c *client.Client, args map[string]any) (map[string]any, error) {
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
	sub := proto.SubscribeParams{AfterSeq: int(after)}
	sub.Session, _ = args["session"].(string)
	sub.BootID, _ = args["boot_id"].(string)
	var types []string
	if raw, ok := args["types"]; ok {
		list, ok := raw.([]any)
		if !ok {
			return nil, &toolError{Code: proto.CodeInvalidParams, Message: "types must be a list of event types"}
		}
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				return nil, &toolError{Code: proto.CodeInvalidParams, Message: "types must be a list of event types"}
			}
			types = append(types, s)
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
	evs := []map[string]any{}
	deadline := time.Now().Add(time.Duration(waitMS) * time.Millisecond)
	for int64(len(evs)) < max && ctx.Err() == nil {
		c.SetDeadline(deadline)
		var ev map[string]any
		if err := c.Next(&ev); err != nil {
			break // the deadline passed, or the daemon hung up
		}
		t, _ := ev["type"].(string)
		if types == nil && (t == "agent-activity" || t == "output") {
			continue
		}
		if item, ok := ev["item"].(map[string]any); ok {
			if n, ok := item["seq"].(float64); ok && int64(n) > lastSeq {
				lastSeq = int64(n)
			}
		}
		if len(evs) == 0 {
			deadline = time.Now().Add(burst)
		}
		evs = append(evs, ev)
	}
	res := map[string]any{"type": "events", "events": evs, "last_seq": lastSeq, "boot_id": ack.BootID}
	if ack.Resync != nil && *ack.Resync {
		res["resync"] = true
	}
	return res, nil
}

// intArg reads an integer argument with a default and bounds.
func intArg(args map[string]any, name string, dflt, min, max int64) (int64, error) {
	raw, ok := args[name]
	if !ok || raw == nil {
		return dflt, nil
	}
	n, ok := raw.(json.Number)
	if !ok {
		return 0, &toolError{Code: proto.CodeInvalidParams, Message: name + " must be an integer"}
	}
	v, err := n.Int64()
	if err != nil || v < min || v > max {
		return 0, &toolError{Code: proto.CodeInvalidParams, Message: fmt.Sprintf("%s must be an integer from %d to %d", name, min, max)}
	}
	return v, nil
}
