package rpc

import (
	"encoding/json"
	"sort"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
)

// Verb is one protocol verb. Its params are a struct whose field tags are
// the one source that strict decoding, the checks every request passes
// (proto.Validate: required params, bounds, accepted values) and
// list-verbs (proto.Schema) read; Handle makes Params and Run from a
// typed handler. C is what a handler gets about its caller (package
// daemon's connection).
type Verb[C any] struct {
	Name    string
	Desc    string
	Returns string
	Example string
	// Params is a pointer to a zero params struct, for the schema.
	Params any
	Run    func(c C, raw json.RawMessage) (any, *proto.Error)
	// Access is who may call the verb and what it does to a pane: the
	// one declaration dispatch, the link policy, the connection pool and
	// list-verbs read.
	Access Access
}

// Registry is every verb a daemon serves, by name. It is filled while the
// daemon is made and only read after, by every connection at once,
// without a lock.
type Registry[C any] struct {
	verbs map[string]*Verb[C]
}

// NewRegistry is an empty registry.
func NewRegistry[C any]() *Registry[C] {
	return &Registry[C]{verbs: map[string]*Verb[C]{}}
}

// Add registers v under v.Name; a later Add of the same name replaces
// it.
func (r *Registry[C]) Add(v Verb[C]) { r.verbs[v.Name] = &v }

// Lookup is the verb named name, or nil.
func (r *Registry[C]) Lookup(name string) *Verb[C] { return r.verbs[name] }

// Names are every verb's name, sorted.
func (r *Registry[C]) Names() []string {
	names := make([]string, 0, len(r.verbs))
	for n := range r.verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Nearest is the served verb name closest to name, for a did-you-mean
// hint ("" when none is close).
func (r *Registry[C]) Nearest(name string) string { return core.NearestWord(name, r.Names()) }

// List is list-verbs' answer: every verb with its params, returns, access
// and example, and the error codes; or, for one verb, that verb alone
// (without the codes, which are the same for all: one verb's
// description is asked in hot paths such as agent-hook). An unknown verb
// is invalid_params with the nearest name.
func (r *Registry[C]) List(verb string) (proto.VerbList, *proto.Error) {
	list := proto.VerbList{Type: "verb_list", Version: proto.Version, MinVersion: proto.MinVersion, DaemonVersion: version.Get().Module, Envelope: proto.Envelope}
	names := r.Names()
	if verb != "" {
		if r.verbs[verb] == nil {
			return proto.VerbList{}, proto.Errorf(proto.CodeInvalidParams, "unknown verb %q", verb).WithHint(proto.Hint{DidYouMean: core.NearestWord(verb, names)})
		}
		names = []string{verb}
	}
	for _, n := range names {
		v := r.verbs[n]
		info := proto.VerbInfo{Verb: n, Description: v.Desc, Params: proto.Schema(v.Params), Returns: v.Returns, Access: v.Access.Info()}
		if v.Example != "" {
			info.Examples = []string{v.Example}
		}
		list.Verbs = append(list.Verbs, info)
	}
	if verb == "" {
		for _, c := range proto.ErrorCodes() {
			list.ErrorCodes = append(list.ErrorCodes, proto.ErrorCode{Code: c[0], Description: c[1]})
		}
	}
	return list, nil
}
