package herdr

// Unit tests of the adapter's parsers; the adapter over a real daemon's
// sockets is tested in internal/daemon (herdr_*_test.go), which builds
// the daemon it needs.

import (
	"testing"

	"github.com/tuios/tuios/detect"
)

func TestHerdrReporterArgv(t *testing.T) {
	t.Parallel()
	if !herdrReporter([]string{"/usr/bin/crush"}) || herdrReporter([]string{"/bin/sh"}) || herdrReporter(nil) {
		t.Fatal("herdrReporter")
	}
}

// The kinds agent.start takes: a herdr name or a tuios harness id.
func TestHerdrKinds(t *testing.T) {
	t.Parallel()
	if detect.HarnessForKind("Claude") != "claude-code" || detect.HarnessForKind("codex") != "codex" {
		t.Fatal("HarnessForKind")
	}
}

func FuzzHerdrRequest(f *testing.F) {
	f.Add([]byte(`{"id":"1","method":"ping","params":{}}`))
	f.Add([]byte(`{"id":"2","method":"pane.report_agent","params":{"pane_id":"w1:p1","seq":18446744073709551615}}`))
	f.Add([]byte(`{"id":3,"method":"x","params":[]}`))
	f.Add([]byte(`{"method":"","params":null}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		req, herr := parseHerdrRequest(line)
		if herr != nil {
			if req.ID != nil && !isJSONString(req.ID) {
				t.Fatalf("a non-string id echoed: %s", req.ID)
			}
			return
		}
		p, herr := parseHerdrParams(req.Params)
		if herr != nil {
			return
		}
		for _, name := range []string{"pane_id", "source", "state", "message"} {
			p.str(name, true)
		}
		p.u64("seq")
		p.timeout(1000)
		p.boolean("regex")
	})
}

func TestParseWorktreeList(t *testing.T) {
	t.Parallel()
	out := "worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00worktree /r-x\x00HEAD def\x00detached\x00locked because\x00\x00"
	list, err := parseWorktreeList([]byte(out))
	if err != nil || len(list) != 2 || !list[0].Main || list[0].Branch != "main" || !list[1].Detached || !list[1].Locked || list[1].Main {
		t.Fatalf("%+v %v", list, err)
	}
	if _, err := parseWorktreeList([]byte("HEAD abc\x00")); err == nil {
		t.Fatal("a field before any worktree was read")
	}
}

func FuzzParseWorktreeList(f *testing.F) {
	f.Add([]byte("worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00"))
	f.Add([]byte("worktree \x00bare\x00\x00worktree /x\x00prunable gitdir file points to non-existent location\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := parseWorktreeList(b)
		if err != nil {
			return
		}
		for i, wt := range list {
			if wt.Path == "" || wt.Main != (i == 0) {
				t.Fatalf("entry %d: %+v", i, wt)
			}
		}
	})
}
