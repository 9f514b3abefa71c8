package detect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
)

// Explanation says what tuios read in a pane's foreground and why it did
// or did not count it as an agent (the explain-agent-detect output). The
// verdict comes first, in plain words. Everything under Process, Group and
// Ignored was written by the processes themselves: it is data, escaped by
// String.
type Explanation struct {
	// Type is always "agent_detect" (the wire type of the result).
	Type       string                `json:"type"`
	Running    bool                  `json:"running"`
	Matched    bool                  `json:"matched"`
	AtShell    bool                  `json:"at_shell"`
	HarnessID  string                `json:"harness_id,omitempty"`
	Identity   agentstate.Identity   `json:"identity"`
	Confidence agentstate.Confidence `json:"confidence"`
	// Verdict is one sentence, e.g. "This pane runs claude-code behind
	// timeout." or "This pane does not run an agent. The foreground
	// process is bash."
	Verdict string `json:"verdict"`
	// Evidence are the sentences that support the verdict.
	Evidence []string `json:"evidence"`
	// Process is the foreground leader as read.
	Process *ProcessRead `json:"process,omitempty"`
	// ManifestsOf names the process the manifests were compared with: the
	// one that decided, else the leader.
	ManifestsOf string `json:"manifests_of,omitempty"`
	// Manifests is every manifest in lookup order with its result.
	Manifests []ManifestResult `json:"manifests,omitempty"`
	// NameList is the name-list rule that matched, if any.
	NameList string `json:"name_list,omitempty"`
	// NameListRefused says which short list names were seen but not
	// counted for want of corroboration (see NameList).
	NameListRefused []string `json:"name_list_refused,omitempty"`
	// Walked is true when tuios read the processes behind a wrapper leader.
	Walked bool `json:"walked"`
	// Group lists the members read behind the wrapper.
	Group          []GroupMember `json:"group,omitempty"`
	MatchedRule    string        `json:"matched_rule,omitempty"`
	MatchedHarness string        `json:"matched_harness,omitempty"`
	MatchedVia     []string      `json:"matched_via,omitempty"`
	MatchedPID     int           `json:"matched_pid,omitempty"`
	// Hint is the TUIOS_AGENT value read from the leader, if any.
	Hint string `json:"hint,omitempty"`
	Note string `json:"note,omitempty"`
	// Detection is "off" when automatic detection is (DetectionOff).
	Detection string `json:"detection,omitempty"`
	// Ignored lists, when nothing matched, every word on a command line
	// or executable path that looks like an agent's name and was not
	// counted.
	Ignored []IgnoredWord `json:"ignored,omitempty"`
}

// ProcessRead is the foreground leader as tuios read it.
type ProcessRead struct {
	PID         int      `json:"pid"`
	Comm        string   `json:"comm"`
	Argv        []string `json:"argv"`
	Exe         string   `json:"exe"`
	Argv0       string   `json:"argv0"`
	RunToken    string   `json:"run_token"`
	Interpreter bool     `json:"interpreter"`
	Wrapper     bool     `json:"wrapper"`
}

// ManifestResult is one manifest compared with one process.
type ManifestResult struct {
	ID      string `json:"id"`
	Matched bool   `json:"matched"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// IgnoredWord is a known agent name seen where it is not evidence.
type IgnoredWord struct {
	PID  int    `json:"pid"`
	Word string `json:"word"`
	// Where is "argument" or "executable".
	Where string `json:"where"`
	// Text is the argument or the executable path that holds the word.
	Text     string `json:"text"`
	Sentence string `json:"sentence"`
}

// Explain reads a pane's foreground live (not from the detector's cache)
// and says what it saw and why it matched or not.
func (d *Detector) Explain(shellPID int) (Explanation, error) {
	fg, nthreads, err := d.sys.foregroundN(shellPID)
	if err != nil {
		return Explanation{}, err
	}
	t := &trace{}
	m := d.evaluate(fg, nthreads, t, nil)
	return d.explain(fg, m, t), nil
}

// ExplainProcess explains the match of one process on its own identity,
// as if it were a pane's foreground leader (no walk behind it).
func (d *Detector) ExplainProcess(p ProcInfo) Explanation {
	fg := Foreground{Running: !p.empty(), Leader: p}
	t := &trace{noProbe: true}
	m := d.evaluate(fg, 0, t, nil)
	return d.explain(fg, m, t)
}

func (d *Detector) explain(fg Foreground, m Match, t *trace) Explanation {
	x := Explanation{Type: "agent_detect", Running: fg.Running, AtShell: fg.AtShell, Matched: m.Agent, HarnessID: m.HarnessID,
		Identity: m.Identity, Confidence: m.Identity.Confidence(), Walked: t.walked, Group: t.group, Hint: t.hint,
		NameListRefused: t.listRefused}
	if !fg.Running {
		x.Verdict = "This pane runs no process that tuios can read."
		x.Evidence = []string{"No foreground process can be read for this pane."}
		return x
	}
	lv := t.leader
	if lv == nil {
		lv = newView(fg.Leader)
	}
	x.Process = &ProcessRead{PID: fg.Leader.PID, Comm: fg.Leader.Comm, Argv: fg.Leader.Argv, Exe: fg.Leader.Exe,
		Argv0: lv.argv0, RunToken: lv.runToken, Interpreter: lv.interp, Wrapper: lv.wraps}
	label := fg.Leader.Label()

	decider := lv
	if m.Agent && m.Process.PID != fg.Leader.PID {
		decider = newView(m.Process)
	}
	x.ManifestsOf = decider.p.Label()
	for _, mf := range d.reg.list {
		rule, reason := matchManifest(mf, decider, true)
		x.Manifests = append(x.Manifests, ManifestResult{ID: mf.ID, Matched: rule != "", Rule: rule, Reason: reason})
	}

	if m.Agent {
		x.MatchedRule, x.MatchedHarness, x.MatchedVia, x.MatchedPID = m.Rule, m.HarnessID, m.Via, m.Process.PID
		name := m.HarnessID
		if m.Identity == agentstate.IdentityList {
			name = "an agent named " + m.Process.Label()
			x.NameList = m.Rule
		}
		dl := m.Process.Label()
		switch {
		case m.Identity == agentstate.IdentityHint:
			x.Verdict = "This pane runs " + name + ", as named by TUIOS_AGENT."
			x.Evidence = append(x.Evidence, "Named by TUIOS_AGENT="+t.hint+" on pid "+strconv.Itoa(m.Process.PID)+
				" ("+dl+"). The process itself is not a known agent.")
		case len(m.Via) > 0:
			x.Verdict = "This pane runs " + name + " behind " + strings.Join(m.Via, ", ") + "."
			x.Evidence = append(x.Evidence, "The foreground process "+label+" is a wrapper, so tuios read the processes behind it.")
		default:
			x.Verdict = "This pane runs " + name + "."
		}
		switch m.Identity {
		case agentstate.IdentityManifest:
			x.Evidence = append(x.Evidence, "The process "+dl+" matched the manifest "+m.HarnessID+" on "+m.Rule+".",
				evidenceWords(m.Rule)) // explain_words.go: the kind read
		case agentstate.IdentityList:
			x.Evidence = append(x.Evidence, "The process "+dl+" matched the name list on "+strings.TrimPrefix(m.Rule, "name ")+".",
				evidenceWords(m.Rule)+" It names no harness.")
			x.Note = "The name list matched, not a manifest. No harness is named, so no screen rules run."
		}
	} else if fg.AtShell {
		// The pane's own process: a prompt only for an interactive
		// shell, else the script or program it runs (explain_words.go).
		x.Verdict = ownProcessVerdict(lv, label)
		x.AtShell = x.Verdict == atPrompt
	} else {
		x.Verdict = "This pane does not run an agent. The foreground process is " + label + "."
		if lv.wraps {
			switch {
			case t.noProbe:
				x.Evidence = append(x.Evidence, "The process "+label+" is a wrapper. The processes behind it were not read.")
			case !canWalk:
				x.Evidence = append(x.Evidence, "This platform cannot list the processes behind a wrapper.")
			case len(t.group) == 0:
				x.Evidence = append(x.Evidence, "The process "+label+" is a wrapper. Nothing runs behind it.")
			default:
				x.Evidence = append(x.Evidence, "The process "+label+" is a wrapper. None of the "+
					strconv.Itoa(len(t.group))+" processes behind it is an agent.")
			}
		}
		if t.hint != "" {
			x.Evidence = append(x.Evidence, "TUIOS_AGENT="+t.hint+" names no manifest, so it was not counted.")
		}
	}
	if !m.Agent {
		// What looked like an agent's name and was not counted. (For a
		// match the verdict already says what counted.)
		x.Ignored = d.ignored(fg, m, t)
	}
	return x
}

// ApplyReport records that the pane's claim was self-reported by the
// harness (an agentstate report naming it): the explanation then leads
// with that, and identity and confidence are the report's ("report",
// "certain") instead of the live match's tier.
func (x *Explanation) ApplyReport(harness string) {
	if harness == "" {
		return
	}
	x.Evidence = append([]string{"The harness " + harness + " named itself in a report. That is certain."}, x.Evidence...)
	x.HarnessID = harness
	x.Identity = agentstate.IdentityReport
	x.Confidence = agentstate.ConfidenceCertain
}

// knownNames are the words that look like an agent's name: list names,
// manifest ids, and every comm and argv0 name a manifest detects.
func (d *Detector) knownNames() map[string]bool {
	k := map[string]bool{}
	for _, n := range d.names.names {
		k[n] = true
	}
	for _, m := range d.reg.list {
		k[strings.ToLower(m.ID)] = true
		for _, n := range m.Detect.Comm {
			k[n] = true
		}
		for _, n := range m.Detect.Argv0 {
			k[n] = true
		}
	}
	return k
}

// wordSeparators split an argument into words: path separators, spaces
// and shell punctuation.
const wordSeparators = "/\\ \t\n;&|=,:'\"()<>`$"

func (d *Detector) ignored(fg Foreground, m Match, t *trace) []IgnoredWord {
	known := d.knownNames()
	var out []IgnoredWord
	seen := map[string]bool{}
	scan := func(p ProcInfo) {
		counted := ""
		if m.Agent && p.PID == m.Process.PID {
			if strings.Contains(m.Rule, "run token") || strings.HasPrefix(m.Rule, "argv_path=") || strings.HasPrefix(m.Rule, "name package=") {
				counted = runToken(p.Argv)
			}
		}
		for i := 1; i < len(p.Argv); i++ {
			a := p.Argv[i]
			if a == counted {
				continue
			}
			for _, w := range strings.FieldsFunc(a, func(r rune) bool { return strings.ContainsRune(wordSeparators, r) }) {
				w = baseName(w)
				key := strconv.Itoa(p.PID) + "\x00a\x00" + a + "\x00" + w
				if known[w] && !seen[key] {
					seen[key] = true
					out = append(out, IgnoredWord{PID: p.PID, Word: w, Where: "argument", Text: a,
						Sentence: `The argument "` + a + `" contains the word "` + w + `". A word inside an argument is not evidence.`})
				}
			}
		}
		if p.Exe != "" && !(m.Agent && p.PID == m.Process.PID && strings.HasPrefix(m.Rule, "exe_glob=")) {
			comps := pathComps(p.Exe)
			for i := 0; i < len(comps)-1; i++ {
				w := baseName(comps[i])
				key := strconv.Itoa(p.PID) + "\x00e\x00" + w
				if known[w] && !seen[key] {
					seen[key] = true
					out = append(out, IgnoredWord{PID: p.PID, Word: w, Where: "executable", Text: p.Exe,
						Sentence: `The executable path "` + p.Exe + `" contains the word "` + w + `". A directory name is not evidence.`})
				}
			}
		}
	}
	scan(fg.Leader)
	for _, g := range t.group {
		scan(ProcInfo{PID: g.PID, Comm: g.Comm, Argv: g.Argv, Exe: g.Exe})
	}
	return out
}

// String renders the explanation as text: the verdict, the evidence
// indented, then what was read. Control characters in text that came from
// a process are escaped.
func (x Explanation) String() string {
	var b strings.Builder
	line := func(indent, s string) {
		b.WriteString(indent)
		b.WriteString(procEscape(s))
		b.WriteByte('\n')
	}
	line("", x.Verdict)
	for _, e := range x.Evidence {
		line("  ", e)
	}
	if x.Note != "" {
		line("  ", x.Note)
	}
	if p := x.Process; p != nil {
		b.WriteString("\nRead:\n")
		line("  ", fmt.Sprintf("pid          %d", p.PID))
		line("  ", "comm         "+procQuoteText(p.Comm))
		line("  ", "argv         "+procQuoteList(p.Argv))
		exe := procQuoteText(p.Exe)
		if p.Exe == "" {
			exe = "(unreadable)"
		}
		line("  ", "exe          "+exe)
		line("  ", fmt.Sprintf("interpreter  %s", procYesNo(p.Interpreter)))
		if p.Interpreter {
			line("  ", "run token    "+procQuoteText(p.RunToken))
		}
		line("  ", fmt.Sprintf("wrapper      %s", procYesNo(p.Wrapper)))
	}
	if x.Walked {
		b.WriteString("\nBehind the wrapper:\n")
		if len(x.Group) == 0 {
			line("  ", "nothing in the foreground group")
		}
		for _, g := range x.Group {
			s := fmt.Sprintf("depth %d pid %d comm %s argv %s exe %s", g.Depth, g.PID, procQuoteText(g.Comm), procQuoteList(g.Argv), procQuoteText(g.Exe))
			if g.Matched {
				s += " matched on " + g.Rule
			}
			line("  ", s)
		}
	}
	if len(x.Manifests) > 0 {
		b.WriteString("\nManifests (process " + procEscape(x.ManifestsOf) + "):\n")
		for _, r := range x.Manifests {
			if r.Matched {
				line("  ", r.ID+": matched on "+r.Rule)
			} else {
				line("  ", r.ID+": "+r.Reason)
			}
		}
	}
	if x.NameList != "" {
		b.WriteString("\nName list: matched on " + procEscape(x.NameList) + "\n")
	}
	for _, r := range x.NameListRefused {
		line("", "Name list: "+r)
	}
	if len(x.Ignored) > 0 {
		b.WriteString("\nNot counted:\n")
		for _, w := range x.Ignored {
			line("  ", w.Sentence)
		}
	}
	return b.String()
}

func procYesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func procQuoteText(s string) string { return `"` + s + `"` }

func procQuoteList(l []string) string {
	if l == nil {
		return "[]"
	}
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = procQuoteText(s)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// procEscape makes process text safe to print (see vt.Escape).
func procEscape(s string) string { return vt.Escape(s) }
