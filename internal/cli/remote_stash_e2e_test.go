package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The skill's recipe for a file that crosses a link, run as written over a
// real sshd: stash put -s HOST:SESSION prints the path the file has there,
// that path attaches to a message sent there, and stash get brings the
// bytes back here. A file over 8 MB is refused before anything is sent.
func TestStashCrossesALinkAsTheSkillShows(t *testing.T) {
	t.Parallel()
	w := linkedWorld(t)
	near := w.near

	flame := bytes.Repeat([]byte("\x89PNG flame\x00"), 4096)
	src := filepath.Join(near.dir, "flame.png")
	if err := os.WriteFile(src, flame, 0o600); err != nil {
		t.Fatal(err)
	}
	// path=$(...) takes all of stdout: it must be the path and nothing
	// else, here and over the link.
	near.ok("new", "--detach", "here")
	for _, s := range []string{"here", "far:api"} {
		r := near.run("stash", "put", "-s", s, src)
		if p := strings.TrimSuffix(r.out, "\n"); r.code != 0 || !filepath.IsAbs(p) || strings.ContainsAny(p, "\n ") || !strings.Contains(r.err, "stored") {
			t.Fatalf("stash put -s %s: exit %d, stdout %q (want the one path), stderr %q", s, r.code, r.out, r.err)
		}
	}
	path := strings.TrimSuffix(near.ok("stash", "put", "-s", "far:api", src), "\n")
	// The path is the far machine's: the far daemon finds it in its stash.
	if out := w.far.ok("stash", "list", "-s", "api"); !strings.Contains(out, filepath.Base(path)) {
		t.Fatalf("the far stash does not hold %s:\n%s", path, out)
	}

	r := near.run("send-agent-message", "-s", "far:api", "-w", "0", "--from", "tester", "--attach", path, "the hot path is in decode")
	if r.code != 0 {
		t.Fatalf("send-agent-message --attach %s over the link: exit %d\n%s%s", path, r.code, r.out, r.err)
	}
	var inbox struct {
		Messages []struct {
			Attachments []struct {
				Path    string `json:"path"`
				Missing bool   `json:"missing"`
			} `json:"attachments"`
		} `json:"messages"`
	}
	w.far.json(&inbox, "read-agent-messages", "-s", "api", "-w", "0", "--peek")
	if n := len(inbox.Messages); n == 0 || len(inbox.Messages[n-1].Attachments) != 1 ||
		inbox.Messages[n-1].Attachments[0].Path != path || inbox.Messages[n-1].Attachments[0].Missing {
		t.Fatalf("the far inbox: %+v, want one message attaching %s", inbox, path)
	}

	dst := filepath.Join(near.dir, "back.png")
	near.ok("stash", "get", "-s", "far:api", path, dst)
	if got, err := os.ReadFile(dst); err != nil || !bytes.Equal(got, flame) {
		t.Fatalf("stash get -s far:api brought back %d bytes (%v), want the %d put", len(got), err, len(flame))
	}

	big := filepath.Join(near.dir, "big.bin")
	if err := os.WriteFile(big, make([]byte, 8<<20+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := near.run("stash", "put", "-s", "far:api", big); r.code != 1 || !strings.Contains(r.err, "8 MB") {
		t.Fatalf("stash put of 8 MB + 1 byte over the link: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
