package agentstate

import (
	"fmt"
	"strings"
)

// Identity is the evidence tier that named a pane's harness.
type Identity uint8

const (
	IdentityNone     Identity = iota // nothing has named a harness
	IdentityReport                   // the agent's own report named it
	IdentityManifest                 // a manifest matched the process's own identity
	IdentityList                     // a name list matched (names no harness)
	IdentityHint                     // TUIOS_AGENT on the foreground process named it
)

var identityNames = [...]string{"", "report", "manifest", "list", "hint"}

// String is the wire name; IdentityNone is "".
func (i Identity) String() string {
	if int(i) < len(identityNames) {
		return identityNames[i]
	}
	return ""
}

// MarshalText writes the wire name.
func (i Identity) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalText reads a wire name back, so a client decodes what
// MarshalText wrote; an unknown name is an error.
func (i *Identity) UnmarshalText(b []byte) error {
	for n, name := range identityNames {
		if string(b) == name {
			*i = Identity(n)
			return nil
		}
	}
	return fmt.Errorf("agentstate: unknown identity %q", clipName(string(b)))
}

// Confidence says how the harness was recognised. There is no weak tier: a
// weak signal can never add up to a strong verdict.
type Confidence uint8

const (
	ConfidenceNone    Confidence = iota // "none"
	ConfidenceStrong                    // "strong": the process named itself
	ConfidenceCertain                   // "certain": the agent said so
)

// String is the wire name.
func (c Confidence) String() string {
	switch c {
	case ConfidenceStrong:
		return "strong"
	case ConfidenceCertain:
		return "certain"
	}
	return "none"
}

// MarshalText writes the wire name.
func (c Confidence) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a wire name back; an unknown name is an error.
func (c *Confidence) UnmarshalText(b []byte) error {
	for _, x := range []Confidence{ConfidenceNone, ConfidenceStrong, ConfidenceCertain} {
		if string(b) == x.String() {
			*c = x
			return nil
		}
	}
	return fmt.Errorf("agentstate: unknown confidence %q", clipName(string(b)))
}

// clipName keeps a name quoted in an error short.
func clipName(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// Confidence is the tier's confidence.
func (i Identity) Confidence() Confidence {
	switch i {
	case IdentityReport:
		return ConfidenceCertain
	case IdentityManifest, IdentityList, IdentityHint:
		return ConfidenceStrong
	}
	return ConfidenceNone
}

// Kind says what a needs_input pane waits for.
type Kind uint8

const (
	KindNone     Kind = iota // the source did not say
	KindApproval             // a tool call or an action waits for approval
	KindQuestion             // the agent asked a question
	KindAuth                 // a login (program status only)
)

var kindNames = [...]string{"", "approval", "question", "auth"}

// String is the wire name; KindNone is "".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// MarshalText writes the wire name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// ParseKind reads "approval", "question", "auth" or "" (none).
func ParseKind(name string) (Kind, bool) {
	for i, n := range kindNames {
		if n == name {
			return Kind(i), true
		}
	}
	return KindNone, false
}

// approvalWords mark a message as asking for approval rather than an answer.
var approvalWords = [...]string{"approv", "permission", "allow", "proceed", "confirm", "trust"}

// GuessKind reads a needs_input message: words of approval make it an
// approval, any other text a question, and no text says nothing.
func GuessKind(message string) Kind {
	if strings.TrimSpace(message) == "" {
		return KindNone
	}
	for _, w := range approvalWords {
		if containsFold(message, w) {
			return KindApproval
		}
	}
	return KindQuestion
}

// containsFold reports whether s contains the lower-case ASCII word w,
// ignoring ASCII case, without allocating.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for ; j < len(w); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == len(w) {
			return true
		}
	}
	return false
}
