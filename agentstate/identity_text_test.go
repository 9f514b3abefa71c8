package agentstate

import (
	"encoding/json"
	"testing"
)

// Identity and Confidence decode what they encode: a client reading a
// result (explain-agent-detect's identity and confidence) gets the
// values back, and a name no daemon writes is refused.
func TestIdentityConfidenceRoundTrip(t *testing.T) {
	for _, id := range []Identity{IdentityNone, IdentityReport, IdentityManifest, IdentityList, IdentityHint} {
		b, _ := json.Marshal(struct{ I Identity }{id})
		var back struct{ I Identity }
		if err := json.Unmarshal(b, &back); err != nil || back.I != id {
			t.Errorf("identity %q: got %v, %v", id, back.I, err)
		}
	}
	for _, c := range []Confidence{ConfidenceNone, ConfidenceStrong, ConfidenceCertain} {
		b, _ := json.Marshal(struct{ C Confidence }{c})
		var back struct{ C Confidence }
		if err := json.Unmarshal(b, &back); err != nil || back.C != c {
			t.Errorf("confidence %q: got %v, %v", c, back.C, err)
		}
	}
	var i Identity
	if err := i.UnmarshalText([]byte("hunch")); err == nil {
		t.Error("identity hunch was taken")
	}
	var c Confidence
	if err := c.UnmarshalText([]byte("weak")); err == nil {
		t.Error("confidence weak was taken")
	}
}

// The names come from a daemon's answer: any bytes decode or are refused,
// never panic, and what decodes writes the same name back.
func FuzzIdentityConfidenceText(f *testing.F) {
	for _, s := range []string{"", "report", "manifest", "list", "hint", "none", "strong", "certain", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var i Identity
		if i.UnmarshalText([]byte(s)) == nil && i.String() != s {
			t.Fatalf("identity %q reads back as %q", s, i.String())
		}
		var c Confidence
		if c.UnmarshalText([]byte(s)) == nil && c.String() != s {
			t.Fatalf("confidence %q reads back as %q", s, c.String())
		}
	})
}
