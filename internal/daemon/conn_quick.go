package daemon

import (
	"bytes"

	"github.com/tuios/tuios/internal/proto"
)

// A person's key reaches its pane with as few hand-overs as can be. The
// attach client types with quiet send-text (proto.Request.Quiet), one
// request per key; handing each to the connection's worker goroutine
// would, besides the hand-over, wake a second thread to look for work
// on every key. So when nothing is ahead of it on the connection, the
// goroutine that read the request runs it itself, and answers only if it
// fails, as the worker would. It never waits there: typing that finds the
// pane's input full goes to the worker after all (errWouldWait), which
// waits for room while this goroutine goes on reading, so a client that
// hangs up still ends the wait.

// quickType runs rq on the reading goroutine when it is a quiet
// send-text and the worker has nothing in hand; false leaves it to the
// worker.
func (cn *conn) quickType(rq request) bool {
	if cn.inflight.Load() != 0 || !bytes.Contains(rq.line, []byte(`"quiet":true`)) || !bytes.Contains(rq.line, []byte(`"send-text"`)) {
		return false
	}
	// The worker is idle: what it set before it finished (a stream, a
	// host connection) is seen here, and nothing it does runs meanwhile.
	if cn.attached != nil || cn.attaching != nil || cn.host != nil || cn.sub != nil {
		return false
	}
	req, perr := proto.ParseRequest(rq.line)
	if perr != nil || !req.Quiet || req.Verb != "send-text" {
		return false
	}
	cn.quick = true
	resp, _, _ := cn.handleRequest(req)
	cn.quick = false
	if resp.Error == errWouldWait {
		return false
	}
	cn.s.budget.Release(len(rq.line))
	if resp.Error != nil {
		cn.send(resp)
	}
	return true
}
