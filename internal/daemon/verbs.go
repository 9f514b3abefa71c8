package daemon

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/tuios/tuios/internal/fuzzy"
	"github.com/tuios/tuios/internal/proto"
)

// verb is one protocol verb. Its params are a struct whose fields carry
// json names and `desc`, `req` and `accepted` tags: the one source both
// strict decoding and list-verbs read.
type verb struct {
	name    string
	desc    string
	returns string
	example string
	params  any // a pointer to a zero params struct, for the schema
	run     func(cn *conn, raw json.RawMessage) (any, *proto.Error)
}

// handler adapts a typed handler: params decoded strictly, required
// params checked.
func handler[P any](fn func(cn *conn, p *P) (any, *proto.Error)) (any, func(*conn, json.RawMessage) (any, *proto.Error)) {
	return new(P), func(cn *conn, raw json.RawMessage) (any, *proto.Error) {
		p := new(P)
		if err := proto.DecodeParams(raw, p); err != nil {
			return nil, err
		}
		if err := checkRequired(p); err != nil {
			return nil, err
		}
		return fn(cn, p)
	}
}

func checkRequired(p any) *proto.Error {
	v := reflect.ValueOf(p).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("req") == "true" && v.Field(i).IsZero() {
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			return proto.Errorf(proto.CodeInvalidParams, "the param %q is required", name).WithHint(proto.Hint{Param: name})
		}
	}
	return nil
}

// schema describes a params struct for list-verbs.
func schema(p any) []proto.Param {
	out := []proto.Param{}
	if p == nil {
		return out
	}
	t := reflect.TypeOf(p).Elem()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		typ := "string"
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64:
			typ = "int"
		case reflect.Bool:
			typ = "bool"
		case reflect.Slice:
			typ = "[]string"
		case reflect.Map, reflect.Struct:
			typ = "object"
		}
		prm := proto.Param{Name: name, Type: typ, Description: f.Tag.Get("desc"), Required: f.Tag.Get("req") == "true"}
		if acc := f.Tag.Get("accepted"); acc != "" {
			prm.Accepted = strings.Split(acc, ",")
		}
		out = append(out, prm)
	}
	return out
}

func (s *Server) dispatch(cn *conn, req proto.Request) (any, *proto.Error) {
	v := s.verbs[req.Verb]
	if v == nil {
		names := make([]string, 0, len(s.verbs))
		for n := range s.verbs {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, proto.Errorf(proto.CodeUnknownVerb, "unknown verb %q", req.Verb).
			WithHint(proto.Hint{DidYouMean: nearestWord(req.Verb, names), Command: `{"verb":"list-verbs"}`})
	}
	return v.run(cn, req.Params)
}

// nearestWord is the closest name by edit distance (or a name the word is
// a prefix or part of).
func nearestWord(w string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		d := fuzzy.Distance(w, n)
		if strings.HasPrefix(n, w) || strings.Contains(n, w) {
			d = min(d, 2)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	if bestD > max(3, len(w)/2) {
		return ""
	}
	return best
}

// verbTable is every verb the daemon serves.
func (s *Server) verbTable() map[string]*verb {
	all := []*verb{}
	add := func(name, desc, returns, example string, params any, run func(*conn, json.RawMessage) (any, *proto.Error)) {
		all = append(all, &verb{name: name, desc: desc, returns: returns, example: example, params: params, run: run})
	}
	s.metaVerbs(add)
	s.sessionVerbs(add)
	s.windowVerbs(add)
	s.paneVerbs(add)
	s.agentVerbs(add)
	s.waitVerbs(add)
	s.mailVerbs(add)
	m := map[string]*verb{}
	for _, v := range all {
		m[v.name] = v
	}
	return m
}

type addFunc func(name, desc, returns, example string, params any, run func(*conn, json.RawMessage) (any, *proto.Error))

// ---- hello, list-verbs, kill-server, subscribe ----

type helloParams struct {
	Client   string `json:"client" desc:"the client's name"`
	Version  string `json:"version" desc:"the client's version"`
	Protocol int    `json:"protocol" desc:"the protocol the client speaks"`
}

type listVerbsParams struct {
	Verb string `json:"verb" desc:"describe only this verb"`
}

type noParams struct{}

type killResult struct {
	Type string `json:"type"`
}

type subscribeParams struct {
	Session string   `json:"session" desc:"only this session's events (default: all)"`
	Window  string   `json:"window" desc:"only this window's events (its full id)"`
	Types   []string `json:"types" desc:"only these event types (output is sent only when named)"`
	Queue   int      `json:"queue" desc:"events queued before the oldest are dropped (default 256)"`
}

func (s *Server) metaVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *helloParams) (any, *proto.Error) {
		if p.Protocol != 0 && (p.Protocol < proto.MinVersion || p.Protocol > proto.Version) {
			return nil, proto.Errorf(proto.CodeProtocolMismatch, "this daemon speaks protocol %d to %d, not %d", proto.MinVersion, proto.Version, p.Protocol)
		}
		s.mu.Lock()
		n := len(s.sessions)
		s.mu.Unlock()
		return map[string]any{"type": "hello", "protocol": proto.Version, "min_protocol": proto.MinVersion,
			"daemon_version": Version, "pid": pidSelf(), "sessions": n}, nil
	})
	add("hello", "Say hello: the daemon's version, protocol and pid", "hello", `{"verb":"hello","params":{"client":"me","protocol":1}}`, p, h)

	p, h = handler(func(cn *conn, p *listVerbsParams) (any, *proto.Error) {
		list := proto.VerbList{Type: "verb_list", Version: proto.Version, MinVersion: proto.MinVersion, DaemonVersion: Version, Envelope: proto.Envelope}
		names := make([]string, 0, len(s.verbs))
		for n := range s.verbs {
			names = append(names, n)
		}
		sort.Strings(names)
		if p.Verb != "" {
			if s.verbs[p.Verb] == nil {
				return nil, proto.Errorf(proto.CodeInvalidParams, "unknown verb %q", p.Verb).WithHint(proto.Hint{DidYouMean: nearestWord(p.Verb, names)})
			}
			names = []string{p.Verb}
		}
		for _, n := range names {
			v := s.verbs[n]
			info := proto.VerbInfo{Verb: n, Description: v.desc, Params: schema(v.params), Returns: v.returns}
			if v.example != "" {
				info.Examples = []string{v.example}
			}
			list.Verbs = append(list.Verbs, info)
		}
		for _, c := range proto.ErrorCodes() {
			list.ErrorCodes = append(list.ErrorCodes, proto.ErrorCode{Code: c[0], Description: c[1]})
		}
		return list, nil
	})
	add("list-verbs", "Describe every verb: params, types, accepted values", "verb_list", `{"verb":"list-verbs","params":{"verb":"set-agent-state"}}`, p, h)

	p, h = handler(func(cn *conn, p *noParams) (any, *proto.Error) {
		return killResult{Type: "server_killed"}, nil
	})
	add("kill-server", "Stop the daemon and every pane", "server_killed", `{"verb":"kill-server"}`, p, h)

	p, h = handler(func(cn *conn, p *subscribeParams) (any, *proto.Error) {
		if cn.sub != nil {
			return nil, proto.Errorf(proto.CodeInvalidRequest, "this connection already subscribed").WithHint(proto.Hint{Detail: "open another connection"})
		}
		q := p.Queue
		if q <= 0 {
			q = 256
		}
		sub := &subscriber{session: p.Session, window: p.Window, q: make(chan event, q)}
		if len(p.Types) > 0 {
			sub.types = map[string]bool{}
			for _, t := range p.Types {
				sub.types[t] = true
			}
		}
		seq := s.hub.add(sub)
		cn.sub = sub // serveConn starts the stream once this answer is sent
		return map[string]any{"type": "subscribed", "seq": seq}, nil
	})
	add("subscribe", "Stream events on this connection, one JSON line each; a slow reader gets a gap event", "subscribed", `{"verb":"subscribe","params":{"types":["agent-state"]}}`, p, h)
}

// stream writes a subscriber's events to its connection; drops are
// announced with a gap event before the next delivered one.
func (cn *conn) stream(sub *subscriber) {
	for ev := range sub.q {
		sub.mu.Lock()
		dropped := sub.dropped
		sub.dropped = 0
		sub.mu.Unlock()
		if dropped > 0 {
			if cn.sendRaw(event{Type: "gap", Dropped: dropped}) != nil {
				return
			}
		}
		if cn.sendRaw(ev) != nil {
			return
		}
	}
}
