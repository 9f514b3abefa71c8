package links

import (
	"strings"
	"testing"
)

// A claimed name is refused, or is a stable lowercased host name up to
// the first dot: never local, never longer than MaxPeerName.
func FuzzPeerName(f *testing.F) {
	for _, s := range []string{"", "build", "Build.example.com", "a b", "local", ".x", "é", "x_y-z", strings.Repeat("a", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		name, ok := PeerName(raw)
		if !ok {
			if name != "" {
				t.Fatalf("refused %q but named %q", raw, name)
			}
			return
		}
		if name == "" {
			if raw != "" {
				t.Fatalf("%q accepted as no name", raw)
			}
			return
		}
		if len(name) > MaxPeerName || strings.ContainsAny(name, ". \t\n") || name != strings.ToLower(name) || name == "local" {
			t.Fatalf("%q -> %q", raw, name)
		}
		if again, ok := PeerName(name); !ok || again != name {
			t.Fatalf("not stable: %q -> %q -> %q", raw, name, again)
		}
	})
}
