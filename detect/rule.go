package detect

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
)

// RuleKind says which block a RuleSet came from; it decides which states,
// regions and fields its rules may use.
type RuleKind int

// The three rule blocks of a manifest.
const (
	RuleScreen RuleKind = iota // [screen]: the bottom rows of the pane
	RuleTitle                  // [title]: the window title (OSC 0/2) or OSC 9;4 text
	RuleNotify                 // [notify]: desktop notifications (OSC 9/777/99)
)

// String is the TOML block name.
func (k RuleKind) String() string {
	switch k {
	case RuleScreen:
		return "screen"
	case RuleTitle:
		return "title"
	case RuleNotify:
		return "notify"
	}
	return "rules"
}

// Limits of the rule language. A manifest that exceeds one is refused
// when it loads.
const (
	DefaultScreenLines = 6   // rows read when a [screen] block sets no lines
	MaxScreenLines     = 200 // most rows a [screen] block may read
	MaxPatternBytes    = 512 // longest regex pattern
	MaxGroupDepth      = 8   // deepest nesting of all_of/any_of/none_of
	MaxGroups          = 512 // rules plus nested groups per manifest file
	MaxPredicates      = 1024
	MaxMessageRunes    = 160 // longest message a rule builds
	maxDialogFields    = 8
	maxAnswerKeys      = 8
)

// RuleSet is one [screen], [title] or [notify] block of a manifest. It is
// decoded from TOML and must be compiled with Compile before it classifies
// anything; an uncompiled set matches nothing.
type RuleSet struct {
	Enabled  bool   `toml:"enabled" json:"enabled"`
	FoldCase bool   `toml:"fold_case" json:"fold_case"`
	Lines    int    `toml:"lines" json:"lines,omitempty"`
	Rules    []Rule `toml:"rule" json:"rule,omitempty"`

	kind     RuleKind
	compiled bool
	lines    int   // effective rows to read
	order    []int // rule indexes, highest priority first, ties in file order
}

// Group is a nested predicate group of a rule (all_of, any_of, none_of),
// written as an inline table with the same predicate fields as a rule.
type Group struct {
	All      []string `toml:"all" json:"all,omitempty"`
	Any      []string `toml:"any" json:"any,omitempty"`
	Not      []string `toml:"not" json:"not,omitempty"`
	None     []string `toml:"none" json:"none,omitempty"` // alias of Not
	Regex    []string `toml:"regex" json:"regex,omitempty"`
	NotRegex []string `toml:"not_regex" json:"not_regex,omitempty"`
	AllOf    []Group  `toml:"all_of" json:"all_of,omitempty"`
	AnyOf    []Group  `toml:"any_of" json:"any_of,omitempty"`
	NoneOf   []Group  `toml:"none_of" json:"none_of,omitempty"`
}

// Rule is one [[screen.rule]], [[title.rule]] or [[notify.rule]].
//
// A rule matches when its gate holds: every All string is present, at least
// one Any string (when Any is set), no Not string, every Regex matches, no
// NotRegex matches, every AllOf group holds, at least one AnyOf group (when
// set), and no NoneOf group. A rule that names nothing positive (no All, Any,
// Regex or positive group) matches nothing.
type Rule struct {
	State    string   `toml:"state" json:"state"`
	Priority int      `toml:"priority" json:"priority"`
	Message  string   `toml:"message" json:"message,omitempty"`
	Kind     string   `toml:"kind" json:"kind,omitempty"`
	All      []string `toml:"all" json:"all,omitempty"`
	Any      []string `toml:"any" json:"any,omitempty"`
	Not      []string `toml:"not" json:"not,omitempty"`
	None     []string `toml:"none" json:"none,omitempty"` // alias of Not
	Regex    []string `toml:"regex" json:"regex,omitempty"`
	NotRegex []string `toml:"not_regex" json:"not_regex,omitempty"`
	AllOf    []Group  `toml:"all_of" json:"all_of,omitempty"`
	AnyOf    []Group  `toml:"any_of" json:"any_of,omitempty"`
	NoneOf   []Group  `toml:"none_of" json:"none_of,omitempty"`

	// Region is the part of the screen (or title) the rule reads.
	Region string `toml:"region" json:"region,omitempty"`
	// Show = "dialog" makes a needs_input screen rule read bordered boxes.
	Show       string   `toml:"show" json:"show,omitempty"`
	ToolField  string   `toml:"tool_field" json:"tool_field,omitempty"`
	WhatFields []string `toml:"what_fields" json:"what_fields,omitempty"`
	HintFields []string `toml:"hint_fields" json:"hint_fields,omitempty"`
	Answers    *Answers `toml:"answers" json:"answers,omitempty"`
	// Source is free text: where the rule's strings come from.
	Source string `toml:"source" json:"source,omitempty"`

	c compiledRule
}

// Answers says how a person's answer to the prompt a rule matched is typed.
type Answers struct {
	Approve       *Answer `toml:"approve" json:"approve,omitempty"`
	ApproveAlways *Answer `toml:"approve_always" json:"approve_always,omitempty"`
	Deny          *Answer `toml:"deny" json:"deny,omitempty"`
	Choose        string  `toml:"choose" json:"choose,omitempty"` // "" or "digit"
	Text          bool    `toml:"text" json:"text,omitempty"`
}

// Answer picks an option by its label prefix, or presses keys, or both.
type Answer struct {
	Option string   `toml:"option" json:"option,omitempty"`
	Keys   []string `toml:"keys" json:"keys,omitempty"`
}

// region kinds
type regionKind uint8

const (
	regTail regionKind = iota
	regBottom
	regPromptBox
	regAbovePromptBox
	regLastAbovePromptBox
	regAfterRule
	regTitle
	regProgress
	regNotify
)

type compiledRule struct {
	state  agentstate.State
	kind   agentstate.Kind
	region regionKind
	n      int // rows for regBottom
	dialog bool
	empty  bool // names nothing positive: never matches
	g      gate
}

// gate is a compiled predicate group.
type gate struct {
	all, any, not   []string // folded when the set folds case
	regex, notRegex []*regexp.Regexp
	allOf, anyOf    []gate
	noneOf          []gate
	positive        bool // names something positive (recursively)
	rawAll, rawAny  []string
	rawNot          []string
	rawRegex        []string
	rawNotRegex     []string
}

// Kind reports the block the set was compiled as.
func (rs *RuleSet) Kind() RuleKind { return rs.kind }

// Compiled reports whether Compile succeeded on the set.
func (rs *RuleSet) Compiled() bool { return rs != nil && rs.compiled }

// ReadLines is how many non-empty rows a screen look reads for this set.
func (rs *RuleSet) ReadLines() int {
	if rs.lines > 0 {
		return rs.lines
	}
	if rs.Lines > 0 && rs.Lines <= MaxScreenLines {
		return rs.Lines
	}
	return DefaultScreenLines
}

// Budget counts the groups (rules and nested groups) and the strings plus
// patterns of the set, for the per-file limits MaxGroups and MaxPredicates.
func (rs *RuleSet) Budget() (groups, predicates int) {
	for i := range rs.Rules {
		r := &rs.Rules[i]
		g, p := budgetOf(r.All, r.Any, r.Not, r.None, r.Regex, r.NotRegex, r.AllOf, r.AnyOf, r.NoneOf)
		groups += 1 + g
		predicates += p
	}
	return groups, predicates
}

func budgetOf(all, any, not, none, re, notRe []string, allOf, anyOf, noneOf []Group) (groups, preds int) {
	preds = len(all) + len(any) + len(not) + len(none) + len(re) + len(notRe)
	for _, list := range [3][]Group{allOf, anyOf, noneOf} {
		for i := range list {
			g := &list[i]
			gg, pp := budgetOf(g.All, g.Any, g.Not, g.None, g.Regex, g.NotRegex, g.AllOf, g.AnyOf, g.NoneOf)
			groups += 1 + gg
			preds += pp
		}
	}
	return groups, preds
}

// checkBudgets checks the per-file limits over every rule block of one
// manifest file.
func checkBudgets(sets ...*RuleSet) error {
	groups, preds := 0, 0
	for _, rs := range sets {
		if rs == nil {
			continue
		}
		g, p := rs.Budget()
		groups += g
		preds += p
	}
	if groups > MaxGroups {
		return fmt.Errorf("rules use %d groups, at most %d per file", groups, MaxGroups)
	}
	if preds > MaxPredicates {
		return fmt.Errorf("rules use %d strings and patterns, at most %d per file", preds, MaxPredicates)
	}
	return nil
}

// Compile validates the set as a block of the given kind and prepares it
// for classification. The error names the rule, as in
// `screen.rule[2]: unknown state "foo"` (rule indexes count from 0). A set
// that fails to compile matches nothing. Compile is not safe to call while
// another goroutine classifies with the same set; after it returns, the set
// is read-only and safe for concurrent use.
func (rs *RuleSet) Compile(kind RuleKind) error {
	rs.compiled = false
	rs.kind = kind
	rs.order = nil
	if kind < RuleScreen || kind > RuleNotify {
		return fmt.Errorf("unknown rule block %d", int(kind))
	}
	name := kind.String()
	rs.lines = 0
	if kind == RuleScreen {
		switch {
		case rs.Lines < 0 || rs.Lines > MaxScreenLines:
			return fmt.Errorf("%s.lines: %d is out of range 1..%d", name, rs.Lines, MaxScreenLines)
		case rs.Lines == 0:
			rs.lines = DefaultScreenLines
		default:
			rs.lines = rs.Lines
		}
	}
	if g, p := rs.Budget(); g > MaxGroups || p > MaxPredicates {
		return fmt.Errorf("%s: %w", name, checkBudgets(rs))
	}
	for i := range rs.Rules {
		if err := rs.compileRule(&rs.Rules[i]); err != nil {
			return fmt.Errorf("%s.rule[%d]: %w", name, i, err)
		}
	}
	order := make([]int, len(rs.Rules))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return rs.Rules[order[a]].Priority > rs.Rules[order[b]].Priority
	})
	rs.order = order
	rs.compiled = true
	return nil
}

func (rs *RuleSet) compileRule(r *Rule) error {
	r.c = compiledRule{}
	st, ok := parseRuleState(r.State)
	if !ok {
		return fmt.Errorf("unknown state %q (want %s)", r.State, statesFor(rs.kind))
	}
	allowed := st == agentstate.Working || st == agentstate.NeedsInput || st == agentstate.Idle ||
		(st == agentstate.Done && rs.kind == RuleNotify)
	if !allowed {
		return fmt.Errorf("unknown state %q for a %s rule (want %s)", r.State, rs.kind, statesFor(rs.kind))
	}
	r.c.state = st

	switch strings.TrimSpace(r.Kind) {
	case "":
	case "approval":
		r.c.kind = agentstate.KindApproval
	case "question":
		r.c.kind = agentstate.KindQuestion
	default:
		return fmt.Errorf("unknown kind %q (want approval or question)", r.Kind)
	}

	if err := rs.compileRegion(r); err != nil {
		return err
	}
	g, err := compileGate(r.All, r.Any, r.Not, r.None, r.Regex, r.NotRegex, r.AllOf, r.AnyOf, r.NoneOf, rs.FoldCase, 0, "")
	if err != nil {
		return err
	}
	r.c.g = g
	r.c.empty = !g.positive

	if r.c.state == agentstate.NeedsInput {
		if r.c.kind == agentstate.KindNone {
			words := r.Message + " " + strings.Join(r.All, " ") + " " + strings.Join(r.Any, " ") + " " + strings.Join(nestedPositive(r.AllOf, r.AnyOf), " ")
			r.c.kind = agentstate.GuessKind(words)
			if r.c.kind == agentstate.KindNone {
				r.c.kind = agentstate.KindQuestion
			}
		}
	} else {
		r.c.kind = agentstate.KindNone
	}

	// Idle proof: an idle screen rule must read the prompt box or pin its
	// structure with a pattern on every path to a match.
	if rs.kind == RuleScreen && st == agentstate.Idle && r.c.region != regPromptBox && !g.pinned() {
		return fmt.Errorf("idle rule must read region \"prompt_box\" or carry a regex that pins the input box on every path to a match")
	}

	if err := rs.compileDialog(r); err != nil {
		return err
	}
	if err := rs.checkAnswers(r); err != nil {
		return err
	}
	return nil
}

func parseRuleState(s string) (agentstate.State, bool) {
	switch strings.TrimSpace(s) {
	case "working":
		return agentstate.Working, true
	case "needs_input":
		return agentstate.NeedsInput, true
	case "idle":
		return agentstate.Idle, true
	case "done":
		return agentstate.Done, true
	}
	return agentstate.None, false
}

func statesFor(k RuleKind) string {
	if k == RuleNotify {
		return "working, needs_input, idle or done"
	}
	return "working, needs_input or idle"
}

func (rs *RuleSet) compileRegion(r *Rule) error {
	reg := strings.TrimSpace(r.Region)
	switch rs.kind {
	case RuleNotify:
		if reg != "" {
			return fmt.Errorf("region %q: notify rules read the whole notification and take no region", r.Region)
		}
		r.c.region = regNotify
		return nil
	case RuleTitle:
		switch reg {
		case "", "title", "osc_title":
			r.c.region = regTitle
		case "osc_progress":
			r.c.region = regProgress
		default:
			return fmt.Errorf("unknown region %q (title rules read title, osc_title or osc_progress)", r.Region)
		}
		return nil
	}
	switch reg {
	case "", "tail", "whole_recent":
		r.c.region = regTail
	case "prompt_box", "prompt_box_body":
		r.c.region = regPromptBox
	case "above_prompt_box":
		r.c.region = regAbovePromptBox
	case "last_non_empty_above_prompt_box":
		r.c.region = regLastAbovePromptBox
	case "after_last_horizontal_rule":
		r.c.region = regAfterRule
	default:
		const pre, post = "bottom_non_empty_lines(", ")"
		if !strings.HasPrefix(reg, pre) || !strings.HasSuffix(reg, post) {
			return fmt.Errorf("unknown region %q", r.Region)
		}
		num := reg[len(pre) : len(reg)-len(post)]
		n, ok := plainDecimal(num)
		if !ok || n < 1 || n > MaxScreenLines {
			return fmt.Errorf("region %q: N must be a plain decimal 1..%d", r.Region, MaxScreenLines)
		}
		if n > rs.lines {
			return fmt.Errorf("region %q reads %d lines but the block reads only lines = %d", r.Region, n, rs.lines)
		}
		r.c.region = regBottom
		r.c.n = n
	}
	return nil
}

// plainDecimal parses digits only, no sign, no leading zero.
func plainDecimal(s string) (int, bool) {
	if s == "" || len(s) > 4 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func compileGate(all, any, not, none, re, notRe []string, allOf, anyOf, noneOf []Group, fold bool, depth int, path string) (gate, error) {
	var g gate
	if depth > MaxGroupDepth {
		return g, fmt.Errorf("%sgroups nest deeper than %d", path, MaxGroupDepth)
	}
	prep := func(field string, list []string) ([]string, error) {
		if len(list) == 0 {
			return nil, nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			if s == "" {
				return nil, fmt.Errorf("%s%s[%d] is empty", path, field, i)
			}
			if fold {
				s = strings.ToLower(s)
			}
			out[i] = s
		}
		return out, nil
	}
	var err error
	if g.all, err = prep("all", all); err != nil {
		return g, err
	}
	if g.any, err = prep("any", any); err != nil {
		return g, err
	}
	nots := append(append([]string(nil), not...), none...)
	if g.not, err = prep("not", nots); err != nil {
		return g, err
	}
	g.rawAll, g.rawAny, g.rawNot = all, any, nots
	if g.regex, err = compilePatterns(path+"regex", re); err != nil {
		return g, err
	}
	if g.notRegex, err = compilePatterns(path+"not_regex", notRe); err != nil {
		return g, err
	}
	g.rawRegex, g.rawNotRegex = re, notRe
	g.positive = len(all) > 0 || len(any) > 0 || len(re) > 0
	sub := func(field string, list []Group, needPositive bool) ([]gate, error) {
		if len(list) == 0 {
			return nil, nil
		}
		out := make([]gate, len(list))
		for i := range list {
			x := &list[i]
			p := fmt.Sprintf("%s%s[%d].", path, field, i)
			c, err := compileGate(x.All, x.Any, x.Not, x.None, x.Regex, x.NotRegex, x.AllOf, x.AnyOf, x.NoneOf, fold, depth+1, p)
			if err != nil {
				return nil, err
			}
			if needPositive && !c.positive {
				return nil, fmt.Errorf("%s%s[%d] names nothing positive (all, any or regex)", path, field, i)
			}
			if !needPositive && !c.positive && len(c.not) == 0 && len(c.notRegex) == 0 && len(c.noneOf) == 0 {
				return nil, fmt.Errorf("%s%s[%d] is empty", path, field, i)
			}
			out[i] = c
		}
		return out, nil
	}
	if g.allOf, err = sub("all_of", allOf, true); err != nil {
		return g, err
	}
	if g.anyOf, err = sub("any_of", anyOf, true); err != nil {
		return g, err
	}
	if g.noneOf, err = sub("none_of", noneOf, false); err != nil {
		return g, err
	}
	if len(g.allOf) > 0 || len(g.anyOf) > 0 {
		g.positive = true
	}
	return g, nil
}

func compilePatterns(field string, list []string) ([]*regexp.Regexp, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]*regexp.Regexp, len(list))
	for i, p := range list {
		if p == "" {
			return nil, fmt.Errorf("%s[%d] is empty", field, i)
		}
		if len(p) > MaxPatternBytes {
			return nil, fmt.Errorf("%s[%d] is %d bytes, at most %d", field, i, len(p), MaxPatternBytes)
		}
		re, err := regexp.Compile("(?m)" + p)
		if err != nil {
			return nil, fmt.Errorf("%s[%d] %q: %v", field, i, p, err)
		}
		out[i] = re
	}
	return out, nil
}

// pinned: every path to a match passes a regex.
func (g *gate) pinned() bool {
	if len(g.regex) > 0 {
		return true
	}
	for i := range g.allOf {
		if g.allOf[i].pinned() {
			return true
		}
	}
	if len(g.anyOf) == 0 {
		return false
	}
	for i := range g.anyOf {
		if !g.anyOf[i].pinned() {
			return false
		}
	}
	return true
}

func nestedPositive(lists ...[]Group) []string {
	var out []string
	for _, list := range lists {
		for i := range list {
			out = append(out, list[i].All...)
			out = append(out, list[i].Any...)
			out = append(out, nestedPositive(list[i].AllOf, list[i].AnyOf)...)
		}
	}
	return out
}

func (rs *RuleSet) compileDialog(r *Rule) error {
	show := strings.TrimSpace(r.Show)
	switch show {
	case "":
		if r.ToolField != "" || len(r.WhatFields) > 0 || len(r.HintFields) > 0 {
			return fmt.Errorf("tool_field, what_fields and hint_fields need show = \"dialog\"")
		}
		return nil
	case "dialog":
	default:
		return fmt.Errorf("unknown show %q (only \"dialog\")", r.Show)
	}
	if rs.kind != RuleScreen || r.c.state != agentstate.NeedsInput {
		return fmt.Errorf("show = \"dialog\" is only for a needs_input screen rule")
	}
	if len(r.All) == 0 {
		return fmt.Errorf("a dialog rule needs all: the strings one box must hold")
	}
	if r.ToolField != "" && !oneWord(r.ToolField) {
		return fmt.Errorf("tool_field %q must be one word", r.ToolField)
	}
	for _, f := range [2]struct {
		name string
		list []string
	}{{"what_fields", r.WhatFields}, {"hint_fields", r.HintFields}} {
		if len(f.list) > maxDialogFields {
			return fmt.Errorf("%s has %d labels, at most %d", f.name, len(f.list), maxDialogFields)
		}
		for i, w := range f.list {
			if !oneWord(w) {
				return fmt.Errorf("%s[%d] %q must be one word", f.name, i, w)
			}
		}
	}
	r.c.dialog = true
	return nil
}

func oneWord(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return false
		}
	}
	return true
}

// answerKeyNames are the named keys an answer may press.
const answerKeyNames = "enter esc tab space up down left right backspace"

func (rs *RuleSet) checkAnswers(r *Rule) error {
	a := r.Answers
	if a == nil {
		return nil
	}
	if rs.kind == RuleNotify || r.c.state != agentstate.NeedsInput {
		return fmt.Errorf("answers are only for a needs_input screen or title rule")
	}
	switch a.Choose {
	case "", "digit":
	default:
		return fmt.Errorf("answers.choose %q: only \"digit\"", a.Choose)
	}
	for _, x := range [3]struct {
		name string
		a    *Answer
	}{{"approve", a.Approve}, {"approve_always", a.ApproveAlways}, {"deny", a.Deny}} {
		if x.a == nil {
			continue
		}
		if x.a.Option == "" && len(x.a.Keys) == 0 {
			return fmt.Errorf("answers.%s needs option or keys", x.name)
		}
		if x.a.Option != "" && rs.kind == RuleTitle {
			return fmt.Errorf("answers.%s.option: a title rule cannot pick an option on the screen", x.name)
		}
		if len(x.a.Keys) > maxAnswerKeys {
			return fmt.Errorf("answers.%s has %d keys, at most %d", x.name, len(x.a.Keys), maxAnswerKeys)
		}
		for i, k := range x.a.Keys {
			if !validAnswerKey(k) {
				return fmt.Errorf("answers.%s.keys[%d] %q: want one of %s or one printable character", x.name, i, k, answerKeyNames)
			}
		}
	}
	return nil
}

func validAnswerKey(k string) bool {
	for _, n := range strings.Fields(answerKeyNames) {
		if k == n {
			return true
		}
	}
	if utf8.RuneCountInString(k) != 1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(k)
	return r != utf8.RuneError && unicode.IsPrint(r) && r != ' '
}
