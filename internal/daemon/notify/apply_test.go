package notify

import (
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/config"
)

func settings(t *testing.T, toml string) config.PushSettings {
	t.Helper()
	f, err := config.Parse([]byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	return f.PushSettings()
}

// What apply-config tells the person: one line per change, a provider
// named by its host only (never its path, topic or secret).
func TestChangesNameProvidersByHost(t *testing.T) {
	t.Parallel()
	off := settings(t, "[notify]\nenabled = false\n[notify.webhook]\nurl = \"https://hooks.example/secret-path\"\n")
	on := settings(t, "[notify]\n[notify.ntfy]\nurl = \"https://ntfy.example/t-9f2c\"\n[notify.webhook]\nurl = \"https://other.example/h\"\n")
	got := changes(off, on)
	want := []string{"notify: turned on", "notify: ntfy (ntfy.example) added", "notify: webhook (other.example) changed"}
	if !slices.Equal(got, want) {
		t.Fatalf("changes:\n got %q\nwant %q", got, want)
	}
	if got := changes(on, on); len(got) != 0 {
		t.Fatalf("no change said %q", got)
	}
	if got := changes(on, off); !slices.Contains(got, "notify: ntfy (ntfy.example) removed") || !slices.Contains(got, "notify: turned off") {
		t.Fatalf("narrowed: %q", got)
	}
}
