package inbox_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

// FuzzMirrorFarItems feeds a mirror what a far daemon could send: any
// JSON as an item, with any op. What it keeps has this side's id form and
// host, one clean line per text, and never more than MaxHostItems.
func FuzzMirrorFarItems(f *testing.F) {
	f.Add([]byte(`{"id":"3","kind":"question","session":"api","summary":"which?","since":1}`), "open")
	f.Add([]byte(`{"id":"4","kind":"approval","host":"gpu","summary":"x"}`), "update")
	f.Add([]byte(`{"id":"5","kind":"mail","count":-3,"summary":"a\u001b[2Jb\nc","options":["\u202eyes"]}`), "close")
	f.Add([]byte(`{"id":"../../x","kind":"zzz"}`), "open")
	f.Fuzz(func(t *testing.T, raw []byte, op string) {
		c := fakeclock.New(t0)
		q := inbox.New(inbox.Options{Clock: c, BootID: "b"})
		m := inbox.NewMirror(q, c)
		var it inbox.Item
		if json.Unmarshal(raw, &it) != nil {
			return
		}
		m.Sync("far", "b1", []inbox.Item{it})
		m.Apply("far", inbox.Op(op), it)
		items, _ := m.List("", inbox.ListOptions{IncludeSnoozed: true})
		if len(items) > inbox.MaxHostItems {
			t.Fatalf("%d items", len(items))
		}
		for _, got := range items {
			if got.Host != "far" || !strings.HasPrefix(got.ID, "far:") {
				t.Fatalf("kept %+v", got)
			}
			if got.Closed != "" {
				t.Fatalf("a listed item says closed: %+v", got)
			}
			for _, s := range []string{got.Session, got.Name, got.Summary, got.Window, string(got.Kind)} {
				if strings.ContainsAny(s, "\x1b\n\r\x07") {
					t.Fatalf("control characters kept: %q", s)
				}
			}
		}
	})
}
