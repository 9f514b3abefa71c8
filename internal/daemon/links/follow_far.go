package links

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// What the follow reads of a far daemon: its event lines and its answers,
// another machine's text, taken for their shape only.

// farEvent is what a followed event line may carry.
type farEvent struct {
	Type    string      `json:"type"`
	Session string      `json:"session"`
	Window  string      `json:"window"`
	State   string      `json:"state"`
	Op      string      `json:"op"`
	Item    *inbox.Item `json:"item"`
}

// parseFarEvent reads one line a far daemon sent on a subscribed stream.
// It is another machine's text: a line that is not a JSON object with a
// type is refused, and nothing in it is trusted beyond its shape (the
// mirror cleans every item).
func parseFarEvent(line []byte) (farEvent, bool) {
	var ev farEvent
	if len(line) > inbox.MaxHostLine || json.Unmarshal(line, &ev) != nil || ev.Type == "" {
		return farEvent{}, false
	}
	if len(ev.Window) > 256 || len(ev.Session) > 4096 || len(ev.State) > 32 {
		return farEvent{}, false
	}
	return ev, true
}

// farListing is the part of a far list-attention the mirror reads.
type farListing struct {
	Items  []inbox.Item `json:"items"`
	Seq    uint64       `json:"seq"`
	BootID string       `json:"boot_id"`
}

type farAgents struct {
	Agents []farAgentRow `json:"agents"`
}

type farAgentRow struct {
	WindowID string `json:"window_id"`
	Session  string `json:"session"`
	Name     string `json:"name"`
	State    string `json:"state"`
}

// followStream is request/answer over one raw stream to a far daemon.
type followStream struct {
	w      io.WriteCloser
	r      *bufio.Reader
	nextID int
}

// call sends one request and reads its answer. Lines before it that are
// not its answer are skipped (none are expected before subscribe).
func (st *followStream) call(verb string, params, result any) *proto.Error {
	st.nextID++
	id := strconv.Itoa(st.nextID)
	p, err := json.Marshal(params)
	if err != nil {
		return proto.Errorf(proto.CodeInternal, "%v", err)
	}
	line, _ := json.Marshal(proto.Request{ID: json.RawMessage(id), Verb: verb, Params: p})
	// A daemon that never answers must not hold the follower: the
	// stream closes under the read, which then fails. (I/O time: the
	// wall clock.)
	t := time.AfterFunc(followCallWait, func() { st.w.Close() })
	defer t.Stop()
	if _, err := st.w.Write(append(line, '\n')); err != nil {
		return proto.Errorf(CodeHostUnreachable, "the stream to the host closed: %v", err)
	}
	for {
		b, err := proto.ReadLine(st.r, inbox.MaxHostLine)
		if errors.Is(err, proto.ErrLineTooLong) {
			return proto.Errorf(proto.CodeInvalidRequest, "the host answered %s with a line over %d bytes", verb, inbox.MaxHostLine)
		}
		if err != nil {
			return proto.Errorf(CodeHostUnreachable, "the stream to the host closed: %v", err)
		}
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *proto.Error    `json:"error"`
		}
		if json.Unmarshal(b, &resp) != nil {
			return proto.Errorf(proto.CodeInvalidRequest, "the host answered %s with a line that is not JSON", verb)
		}
		if string(resp.ID) != id {
			continue
		}
		if resp.Error != nil {
			return resp.Error
		}
		if result != nil && json.Unmarshal(resp.Result, result) != nil {
			return proto.Errorf(proto.CodeInvalidRequest, "the host's answer to %s is not what it should be", verb)
		}
		return nil
	}
}
