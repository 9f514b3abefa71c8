package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/daemon/transfers"
	"github.com/tuios/tuios/internal/proto"
)

func wantXferCode(t *testing.T, what string, err *proto.Error, code string) {
	t.Helper()
	if err == nil || err.Code != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// The copy verbs are the files grant's and never cross a link; list-verbs
// says so.
func TestTransferVerbsDeclareTheFilesGrant(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	for _, name := range []string{"copy", "list-transfers", "pause-transfers", "resume-transfers", "cancel-transfers", "wait-transfers", "clear-transfers"} {
		v := srv.verbs.Lookup(name)
		if v == nil {
			t.Fatalf("no verb %s", name)
		}
		in := v.Access.Info()
		if !slices.Equal(in.Grants, []string{"files"}) || !in.Local || in.Caller != "granted" {
			t.Fatalf("%s: access %+v", name, in)
		}
		if waits := v.Access&holdsConn != 0; waits != (name == "wait-transfers") {
			t.Fatalf("%s: holds its connection %v (only wait-transfers waits, so only it may not be sent quiet)", name, waits)
		}
	}
}

// The list is bounded: 256 unfinished copies and the next is
// transfers_full; once they end, a new copy takes the oldest finished
// one's place. A read-only connection lists but starts, stops and clears
// nothing; every number a client sends is bounded.
func TestTransfersAreBounded(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range transfers.MaxKept {
		// One byte a second: the first chunk goes, then each copy waits.
		r.must("copy", map[string]any{"src": src, "dst": filepath.Join(dir, fmt.Sprint("d", i)), "bwlimit": 1})
	}
	_, err := r.call("copy", map[string]any{"src": src, "dst": filepath.Join(dir, "over")})
	wantXferCode(t, "copy past the cap", err, transfers.CodeTransfersFull)

	ro := dialRPC(t, sock)
	ro.must("restrict-connection", map[string]any{"scope": "all", "read_only": true})
	ro.must("list-transfers", map[string]any{})
	for verb, p := range map[string]map[string]any{
		"copy":             {"src": src, "dst": filepath.Join(dir, "ro")},
		"cancel-transfers": {},
		"pause-transfers":  {"ids": []string{"t1"}},
		"clear-transfers":  {},
	} {
		_, err := ro.call(verb, p)
		wantXferCode(t, verb+" on a read-only connection", err, proto.CodeForbidden)
	}

	ids := make([]string, 257)
	for i := range ids {
		ids[i] = "t1"
	}
	_, err = r.call("cancel-transfers", map[string]any{"ids": ids})
	wantXferCode(t, "257 ids", err, proto.CodeInvalidParams)
	_, err = r.call("copy", map[string]any{"src": src, "dst": filepath.Join(dir, "x"), "bwlimit": int64(1) << 41})
	wantXferCode(t, "a bwlimit over 1 TiB", err, proto.CodeInvalidParams)
	_, err = r.call("wait-transfers", map[string]any{"timeout": 86400001})
	wantXferCode(t, "a wait over a day", err, proto.CodeInvalidParams)
	_, err = r.call("cancel-transfers", map[string]any{"ids": []string{"t999"}})
	wantXferCode(t, "an id that never was", err, transfers.CodeTransferNotFound)

	r.must("cancel-transfers", map[string]any{})
	res := r.must("wait-transfers", map[string]any{"timeout": 20000})
	list, _ := res["transfers"].([]any)
	if len(list) != transfers.MaxKept {
		t.Fatalf("waited for %d copies", len(list))
	}
	for _, x := range list {
		if st := x.(map[string]any)["state"]; st != transfers.StateCancelled {
			t.Fatalf("after cancel: %v", x)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 1 {
		t.Fatalf("cancelled copies left %v", left)
	}
	r.must("copy", map[string]any{"src": src, "dst": filepath.Join(dir, "after")})
	res = r.must("list-transfers", map[string]any{})
	list, _ = res["transfers"].([]any)
	if len(list) != transfers.MaxKept || list[0].(map[string]any)["id"] != "t2" {
		t.Fatalf("the new copy did not take the oldest finished one's place: %d kept, first %v", len(list), list[0])
	}
}
