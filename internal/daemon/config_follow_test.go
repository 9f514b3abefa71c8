package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// The daemon follows its config file: a removed host goes and the link
// policy narrows at once; a new host and a widening wait for apply-config.
func TestConfigFileEditsRemoveAndNarrowAtOnceAndWidenOnApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	write := func(text string) {
		t.Helper()
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil { // as editors and tuios hosts add write it
			t.Fatal(err)
		}
	}
	write("[hosts.old]\naddr = \"127.0.0.1:1\"\n\n[hosts.\"*\"]\nallow = [\"list\", \"mail\"]\n")
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, sock := serverWith(t, func(o *Options) { o.Config = f })
	r := dialRPC(t, sock)
	hostNames := func() map[string]bool {
		res := r.must("list-hosts", map[string]any{})
		out := map[string]bool{}
		for _, h := range res["hosts"].([]any) {
			out[h.(map[string]any)["name"].(string)] = true
		}
		return out
	}
	if !hostNames()["old"] {
		t.Fatalf("old is not linked: %v", hostNames())
	}
	l := linkRPC(t, sock, "build", false)
	l.must("list-sessions", map[string]any{})

	// list taken away, write offered, old removed, fresh added.
	write("[hosts.fresh]\naddr = \"127.0.0.1:2\"\n\n[hosts.\"*\"]\nallow = [\"mail\", \"write\"]\n")
	eventually(t, "old's link closed", func() bool { return !hostNames()["old"] })
	eventually(t, "list narrowed away", func() bool {
		_, err := l.call("list-sessions", map[string]any{})
		return err != nil && err.Code == proto.CodeForbidden
	})
	if hostNames()["fresh"] {
		t.Fatal("a host added by editing the file was dialled before tuios config apply")
	}
	_, perr := l.call("send-text", map[string]any{"text": "x"})
	wantForbidden(t, "write before apply", perr, "write")

	r.must("apply-config", map[string]any{})
	if !hostNames()["fresh"] {
		t.Fatalf("apply-config did not add fresh: %v", hostNames())
	}
	if _, err := l.call("send-text", map[string]any{"text": "x"}); err != nil && err.Code == proto.CodeForbidden {
		t.Fatalf("write after apply: %v", err)
	}
	// A file that does not parse changes nothing.
	write("[hosts.\"*\"\nallow = [")
	r.must("list-hosts", map[string]any{})
	if _, err := l.call("send-text", map[string]any{"text": "x"}); err != nil && err.Code == proto.CodeForbidden {
		t.Fatalf("a broken file narrowed the policy: %v", err)
	}
}

// X9 and X11: a host dropped for a refused option, and a host added to the
// file but not applied, each have an Inbox row that says why; applying
// the file clears the second.
func TestHostsWithoutALinkHaveAnInboxRowSayingWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("[hosts.bad]\naddr = \"bad.lan\"\nssh_options = [\"-o\", \"ProxyCommand=nc %h 22\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, sock := serverWith(t, func(o *Options) { o.Config = f })
	r := dialRPC(t, sock)
	summaryOf := func(host string) string {
		for _, it := range listAtt(t, r, map[string]any{"host": "local"}).Items {
			if it.Kind == "outbox" && strings.Contains(it.Summary, "no link to "+host) {
				return it.Summary
			}
		}
		return ""
	}
	if s := summaryOf("bad"); !strings.Contains(s, "ProxyCommand") {
		t.Fatalf("no row names the refused option: %q", s)
	}
	add := "[hosts.gpu]\naddr = \"127.0.0.1:1\"\n"
	if err := os.WriteFile(path+".tmp", []byte(add), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	eventually(t, "gpu's row says it waits for tuios config apply", func() bool { return strings.Contains(summaryOf("gpu"), "tuios config apply") })
	eventually(t, "bad's row goes with bad", func() bool { return summaryOf("bad") == "" })
	r.must("apply-config", map[string]any{})
	eventually(t, "gpu's row goes once applied", func() bool { return summaryOf("gpu") == "" })
}

// A machine with no config file yet: the daemon still follows the file
// once it is written, folders and all, so a narrowing applies at once.
func TestConfigWrittenAfterTheStartNarrowsAtOnce(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "xdg", "tuios", "config.toml")
	_, sock := serverWith(t, func(o *Options) { o.Config = &config.File{Path: path} })
	r := dialRPC(t, sock)
	mode := func() string { return r.must("pane-grants", map[string]any{})["mode"].(string) }
	if m := mode(); m != "open" {
		t.Fatalf("mode at the start: %s, want open", m)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, "strict applied at once", func() bool { return mode() == "strict" })
	res := r.must("pane-grants", map[string]any{})
	if g := res["default_grants"].([]any); len(g) != 1 || g[0] != "read" {
		t.Fatalf("default grants %v, want [read]", g)
	}
}
