package rpc

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// Handle makes a verb's params and its run from a handler of typed
// params: params is a pointer to a zero P, whose field tags are the
// verb's schema (proto.Schema, for list-verbs); run decodes a request's
// params strictly into a P and checks them against those tags
// (proto.Validate: required params, bounds, accepted values) before fn
// sees them. C is what the handler gets about its caller (package
// daemon's connection); the registry never looks inside it.
func Handle[C, P any](fn func(c C, p *P) (any, *proto.Error)) (params any, run func(C, json.RawMessage) (any, *proto.Error)) {
	return new(P), func(c C, raw json.RawMessage) (any, *proto.Error) {
		p := new(P)
		if err := proto.DecodeParams(raw, p); err != nil {
			return nil, err
		}
		if err := proto.Validate(p); err != nil {
			return nil, err
		}
		res, err := fn(c, p)
		return res, paramProblem(err)
	}
}

// paramProblem gives a param error written as text the hint a client
// words it by (proto.ParamError's problem): a handler that wrote `the
// param "queue" keeps mail…` itself, with hint.param, answers problem
// "keeps mail…" too. The two that do (send-agent-message's queue,
// ask-human's question) move to proto.ParamError with their files'
// owners; then this goes.
func paramProblem(err *proto.Error) *proto.Error {
	if err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil || err.Hint.Param == "" || err.Hint.Problem != "" {
		return err
	}
	if rest, ok := strings.CutPrefix(err.Message, fmt.Sprintf("the param %q ", err.Hint.Param)); ok && rest != "" {
		err.Hint.Problem = rest
	}
	return err
}
