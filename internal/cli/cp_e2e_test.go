package cli_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type cpTransfer struct {
	ID        string `json:"id"`
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	State     string `json:"state"`
	Error     string `json:"error"`
	Bytes     int64  `json:"bytes"`
	Total     int64  `json:"total"`
	Files     int    `json:"files"`
	StartedBy string `json:"started_by"`
}

type cpList struct {
	Transfers []cpTransfer `json:"transfers"`
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantFile(t *testing.T, path, body string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != body {
		t.Fatalf("%s: %q, %v; want %q", path, b, err, body)
	}
}

func wantNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Fatalf("%s was written", path)
	}
}

// The files grant through real panes: the person copies anywhere; a pane
// with files copies inside the folder it started in (files and -r
// folders), gets exit 4 and nothing written outside it, by .. or through
// a symlink; a pane without files is forbidden; a pane sees and controls
// only the copies it started.
func TestCopyFilesGrantFolderRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	root := e.workDir()
	proj, outside := filepath.Join(root, "proj"), filepath.Join(root, "outside")
	writeFile(t, filepath.Join(proj, "a.txt"), "alpha\n")
	writeFile(t, filepath.Join(proj, "dir", "sub", "deep.txt"), "deep\n")
	writeFile(t, filepath.Join(proj, "dir", "top.txt"), "top\n")
	writeFile(t, filepath.Join(outside, "secret"), "secret\n")
	if err := os.Symlink(outside, filepath.Join(proj, "link")); err != nil {
		t.Fatal(err)
	}

	// The person copies from anywhere to anywhere, and the line says so.
	out := e.ok("cp", filepath.Join(outside, "secret"), filepath.Join(proj, "from-person"))
	wantFile(t, filepath.Join(proj, "from-person"), "secret\n")
	if !strings.Contains(out, "done") || !strings.Contains(out, "from-person") {
		t.Fatalf("cp said %q", out)
	}

	e.ok("new-window", "-s", "work", "copier", "--no-focus", "--cwd", proj, "--grants", "read,files")
	e.ok("new-window", "-s", "work", "nofiles", "--no-focus", "--cwd", proj, "--grants", "read,write")
	copier := e.windowID("copier")

	// Inside its folder: relative paths are the pane's.
	if rc, out := e.inPane("copier", "tuios cp a.txt b.txt"); rc != 0 {
		t.Fatalf("copy inside the folder: rc %d\n%s", rc, out)
	}
	wantFile(t, filepath.Join(proj, "b.txt"), "alpha\n")
	if rc, out := e.inPane("copier", "tuios cp dir dir2"); rc != 1 || !strings.Contains(out, "-r") {
		t.Fatalf("a folder without -r: rc %d\n%s", rc, out)
	}
	if rc, out := e.inPane("copier", "tuios cp -r dir dir2"); rc != 0 || !strings.Contains(out, "2 files") {
		t.Fatalf("copy -r: rc %d\n%s", rc, out)
	}
	wantFile(t, filepath.Join(proj, "dir2", "sub", "deep.txt"), "deep\n")
	wantFile(t, filepath.Join(proj, "dir2", "top.txt"), "top\n")
	// Into an existing folder, under the source's name.
	if rc, out := e.inPane("copier", "tuios cp a.txt dir2/"); rc != 0 {
		t.Fatalf("copy into a folder: rc %d\n%s", rc, out)
	}
	wantFile(t, filepath.Join(proj, "dir2", "a.txt"), "alpha\n")

	// Outside: exit 4, a message naming the folder, nothing written.
	for _, c := range []struct{ line, notWritten string }{
		{"tuios cp a.txt " + filepath.Join(outside, "x"), filepath.Join(outside, "x")},
		{"tuios cp ../outside/secret c.txt", filepath.Join(proj, "c.txt")},
		{"tuios cp a.txt ../outside/y", filepath.Join(outside, "y")},
		{"tuios cp link/secret d.txt", filepath.Join(proj, "d.txt")},
		{"tuios cp a.txt link/e", filepath.Join(outside, "e")},
		{"tuios cp -r link linkcopy", filepath.Join(proj, "linkcopy")},
		// Nothing about a path outside is told, not even that it is missing.
		{"tuios cp ../outside/nope z.txt", filepath.Join(proj, "z.txt")},
		{"tuios cp a.txt ../outside/no/such/w", filepath.Join(outside, "no")},
	} {
		rc, out := e.inPane("copier", c.line)
		if rc != 4 || !strings.Contains(out, "outside_folder") || !strings.Contains(out, proj) {
			t.Fatalf("%s: rc %d, want 4 naming %s\n%s", c.line, rc, proj, out)
		}
		wantNoFile(t, c.notWritten)
	}

	// Without files: forbidden, naming the grant.
	if rc, out := e.inPane("nofiles", "tuios cp a.txt f.txt"); rc != 1 || !strings.Contains(out, "forbidden") || !strings.Contains(out, "files") {
		t.Fatalf("a pane without files: rc %d\n%s", rc, out)
	}
	wantNoFile(t, filepath.Join(proj, "f.txt"))

	// The pane lists only its own copies and cannot touch the person's.
	_, out = e.inPane("copier", "tuios transfers --json")
	var mine cpList
	if err := json.Unmarshal([]byte(out), &mine); err != nil {
		t.Fatalf("transfers --json in the pane: %v\n%s", err, out)
	}
	if len(mine.Transfers) != 3 {
		t.Fatalf("the pane sees %d copies, want its 3: %+v", len(mine.Transfers), mine.Transfers)
	}
	for _, x := range mine.Transfers {
		if x.StartedBy != copier {
			t.Fatalf("the pane sees a copy it did not start: %+v", x)
		}
	}
	var all cpList
	e.json(&all, "transfers")
	if len(all.Transfers) != 4 || all.Transfers[0].StartedBy != "person" {
		t.Fatalf("the person sees %+v", all.Transfers)
	}
	personsID := all.Transfers[0].ID
	for _, verb := range []string{"cancel", "pause", "wait", "clear"} {
		if rc, out := e.inPane("copier", "tuios transfers "+verb+" "+personsID); rc != 1 || !strings.Contains(out, "transfer_not_found") {
			t.Fatalf("transfers %s of the person's copy from the pane: rc %d\n%s", verb, rc, out)
		}
	}
	// Clear in the pane drops its own finished copies, not the person's.
	if rc, out := e.inPane("copier", "tuios transfers clear"); rc != 0 || !strings.Contains(out, "3 finished") {
		t.Fatalf("clear in the pane: rc %d\n%s", rc, out)
	}
	e.json(&all, "transfers")
	if len(all.Transfers) != 1 || all.Transfers[0].ID != personsID {
		t.Fatalf("after the pane's clear the person sees %+v", all.Transfers)
	}
}

// A large copy, throttled with --bwlimit, is paused (its bytes stop),
// resumed (they go on), waited on with a timeout, cancelled (no file,
// no temporary left), and cleared; a pane's detached copy is the pane's
// to cancel.
func TestTransfersPauseResumeCancelWaitClear(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	root := e.workDir()
	big := filepath.Join(root, "big.bin")
	data := make([]byte, 8<<20)
	rand.Read(data)
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	os.MkdirAll(out, 0o755)

	var started struct {
		Transfer cpTransfer `json:"transfer"`
	}
	e.json(&started, "cp", "-d", "--bwlimit", "256K", big, out+"/")
	id := started.Transfer.ID
	if started.Transfer.State != "running" || started.Transfer.Dst != filepath.Join(out, "big.bin") {
		t.Fatalf("started %+v", started.Transfer)
	}
	get := func() cpTransfer {
		var l cpList
		e.json(&l, "transfers")
		for _, x := range l.Transfers {
			if x.ID == id {
				return x
			}
		}
		t.Fatalf("transfer %s is gone", id)
		return cpTransfer{}
	}
	until := func(what string, ok func(cpTransfer) bool) cpTransfer {
		deadline := time.Now().Add(20 * time.Second)
		for {
			x := get()
			if ok(x) {
				return x
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still %+v", what, x)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	until("bytes move", func(x cpTransfer) bool { return x.Bytes > 0 })

	e.ok("transfers", "pause", id)
	p1 := until("paused", func(x cpTransfer) bool { return x.State == "paused" })
	// A paused copy stays where it stopped, whatever the time.
	deadline := time.Now().Add(600 * time.Millisecond)
	for time.Now().Before(deadline) {
		if x := get(); x.Bytes != p1.Bytes || x.State != "paused" {
			t.Fatalf("paused at %d, now %+v", p1.Bytes, x)
		}
	}
	e.ok("transfers", "resume", id)
	until("goes on after resume", func(x cpTransfer) bool { return x.State == "running" && x.Bytes > p1.Bytes })

	// A wait that ends before the copy: timeout, and the copy goes on.
	r := e.fails("timeout", "transfers", "wait", id, "--timeout", "200")
	if r.code != 1 {
		t.Fatalf("wait timeout exit %d", r.code)
	}
	if x := get(); x.State != "running" {
		t.Fatalf("after the wait's timeout: %+v", x)
	}

	e.ok("transfers", "cancel", id)
	r = e.fails("copy_cancelled", "transfers", "wait", id)
	if !strings.Contains(r.out, "cancelled") {
		t.Fatalf("wait on a cancelled copy printed %q", r.out)
	}
	left, _ := os.ReadDir(out)
	if len(left) != 0 {
		t.Fatalf("a cancelled copy left %v", left)
	}
	if x := get(); x.State != "cancelled" || x.Total != int64(len(data)) || x.Bytes >= x.Total {
		t.Fatalf("cancelled: %+v", x)
	}

	// A whole copy, byte for byte, then clear drops both.
	e.ok("cp", big, filepath.Join(out, "whole.bin"))
	if b, _ := os.ReadFile(filepath.Join(out, "whole.bin")); !bytes.Equal(b, data) {
		t.Fatal("the copy differs from its source")
	}
	if got := e.ok("transfers", "clear"); !strings.Contains(got, "2 finished") {
		t.Fatalf("clear said %q", got)
	}
	if got := e.ok("transfers"); !strings.Contains(got, "No copies") {
		t.Fatalf("after clear: %q", got)
	}

	// A pane's detached copy: the pane lists and cancels it.
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "copier", "--no-focus", "--cwd", root, "--grants", "read,files")
	rc, o := e.inPane("copier", "tuios cp -d --bwlimit 64K big.bin out/pane.bin")
	if rc != 0 || !strings.Contains(o, "started") {
		t.Fatalf("pane cp -d: rc %d\n%s", rc, o)
	}
	pid := strings.Fields(o)[0]
	if rc, o := e.inPane("copier", "tuios transfers cancel "+pid+" && tuios transfers wait "+pid); rc != 1 || !strings.Contains(o, "copy_cancelled") {
		t.Fatalf("pane cancel and wait: rc %d\n%s", rc, o)
	}
	wantNoFile(t, filepath.Join(out, "pane.bin"))
}

// Bad input is refused before anything starts: a host end (not in this
// version), a missing source, a copy into itself, a bad rate.
func TestCopyRefusesBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	root := e.workDir()
	writeFile(t, filepath.Join(root, "d", "f"), "x")
	r := e.fails("not_supported", "cp", "lab:/etc/hosts", filepath.Join(root, "h"))
	if !strings.Contains(r.err, "stash put") {
		t.Fatalf("not_supported gives no way on: %s", r.err)
	}
	e.fails("not_supported", "cp", filepath.Join(root, "d", "f"), "lab:/tmp/")
	e.fails("invalid_params", "cp", filepath.Join(root, "nope"), filepath.Join(root, "n2"))
	e.fails("invalid_params", "cp", "-r", filepath.Join(root, "d"), filepath.Join(root, "d", "inner"))
	e.fails("invalid_params", "cp", "--bwlimit", "fast", filepath.Join(root, "d", "f"), filepath.Join(root, "g"))
	e.fails("invalid_params", "cp", filepath.Join(root, "d", "f"), filepath.Join(root, "missing", "dir", "g"))
	wantNoFile(t, filepath.Join(root, "n2"))
	wantNoFile(t, filepath.Join(root, "d", "inner"))
	wantNoFile(t, filepath.Join(root, "g"))
	// local:PATH is this machine.
	e.ok("cp", "local:"+filepath.Join(root, "d", "f"), filepath.Join(root, "g2"))
	wantFile(t, filepath.Join(root, "g2"), "x")
}

// In a session tuios made in a worktree, the pane's folder is the
// worktree, wherever the pane was started: a pane started elsewhere
// copies inside the worktree, and not in the folder it started in.
func TestCopyFolderIsTheWorktree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	repo := fanRepo(t, e)
	var res struct {
		Session  string `json:"session"`
		Worktree string `json:"worktree"`
	}
	if err := json.Unmarshal([]byte(e.ok("worktree", "new", "feat/cp", "--repo", repo, "-d", "--name", "work", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	if res.Session != "work" || res.Worktree == "" {
		t.Fatalf("worktree new: %+v", res)
	}
	wt, err := filepath.EvalSymlinks(res.Worktree)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(e.workDir(), "other")
	writeFile(t, filepath.Join(other, "o.txt"), "other\n")
	e.ok("new-window", "-s", "work", "elsewhere", "--no-focus", "--cwd", other, "--grants", "read,files")

	if rc, out := e.inPane("elsewhere", "tuios cp "+filepath.Join(wt, "a.txt")+" "+filepath.Join(wt, "b.txt")); rc != 0 {
		t.Fatalf("a copy inside the worktree: rc %d\n%s", rc, out)
	}
	wantFile(t, filepath.Join(wt, "b.txt"), "hi\n")
	rc, out := e.inPane("elsewhere", "tuios cp o.txt o2.txt")
	if rc != 4 || !strings.Contains(out, wt) {
		t.Fatalf("a copy in the folder the pane started in, outside its worktree: rc %d, want 4 naming %s\n%s", rc, wt, out)
	}
	wantNoFile(t, filepath.Join(other, "o2.txt"))
}
