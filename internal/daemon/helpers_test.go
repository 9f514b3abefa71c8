package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// guard bounds how long a test waits for an answer that must come: it is
// a failure guard, never a timing assertion. It is long because CI runs
// this package beside the real agents of internal/cli on two cores with
// the race detector, where a starved goroutine can wait many seconds.
const guard = 45 * time.Second

// rpc is a raw protocol connection for tests.
type rpc struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
	// nonce, when set, goes with every call of a verb that takes one
	// (takesNonce, from the daemon's own list-verbs) and does not name
	// one: this connection acts as the person.
	nonce      string
	takesNonce map[string]bool
}

// personRPC is a connection of the person's attached client: it holds a
// live human nonce (this test process runs outside every pane).
func personRPC(t testing.TB, sock string) *rpc {
	t.Helper()
	r := dialRPC(t, sock)
	r.nonce = str(r.must("attach", map[string]any{"client": "test"})["human_nonce"])
	b, _ := json.Marshal(r.must("list-verbs", nil)["verbs"])
	var verbs []proto.VerbInfo
	json.Unmarshal(b, &verbs)
	r.takesNonce = map[string]bool{}
	for _, v := range verbs {
		for _, p := range v.Params {
			if p.Name == "human_nonce" {
				r.takesNonce[v.Verb] = true
			}
		}
	}
	return r
}

func dialRPC(t testing.TB, sock string) *rpc {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return &rpc{t: t, c: c, r: bufio.NewReader(c)}
}

// call sends one request and reads its answer, failing the test if none
// comes within the guard.
func (r *rpc) call(verb string, params any) (map[string]any, *proto.Error) {
	r.t.Helper()
	if m, ok := params.(map[string]any); ok && r.nonce != "" && r.takesNonce[verb] {
		if _, named := m["human_nonce"]; !named {
			m["human_nonce"] = r.nonce
		}
	}
	b, _ := json.Marshal(map[string]any{"id": 1, "verb": verb, "params": params})
	r.c.SetDeadline(time.Now().Add(guard))
	defer r.c.SetDeadline(time.Time{})
	if _, err := r.c.Write(append(b, '\n')); err != nil {
		r.t.Fatalf("%s: write: %v", verb, err)
	}
	line, err := proto.ReadLine(r.r, proto.MaxLine)
	if err != nil {
		r.t.Fatalf("%s: no answer: %v", verb, err)
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *proto.Error   `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		r.t.Fatalf("%s: bad answer %q", verb, line)
	}
	return resp.Result, resp.Error
}

// must is call for a request that has to succeed.
func (r *rpc) must(verb string, params any) map[string]any {
	r.t.Helper()
	res, err := r.call(verb, params)
	if err != nil {
		r.t.Fatalf("%s %v: %s: %s", verb, params, err.Code, err.Message)
	}
	return res
}

// eventually polls cond until it holds, failing after the guard.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveChildren lists this process's children that are not zombies: the
// panes of an in-process daemon are its children.
func liveChildren() []int {
	return procsWhere(func(f []string) bool {
		return f[1] != "Z" && f[2] == strconv.Itoa(os.Getpid())
	})
}

// inSession lists the live processes whose terminal session is sid.
func inSession(sid int) []int {
	return procsWhere(func(f []string) bool { return f[1] != "Z" && f[4] == strconv.Itoa(sid) })
}

// procsWhere scans /proc/*/stat; fields after the command: state ppid pgrp
// session (f[1..4], f[0] is the pid).
func procsWhere(match func(f []string) bool) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		rest := strings.Fields(string(b[i+1:]))
		if len(rest) < 4 {
			continue
		}
		if match([]string{e.Name(), rest[0], rest[1], rest[2], rest[3]}) {
			out = append(out, pid)
		}
	}
	return out
}

// openFDs counts this process's descriptors.
func openFDs() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents)
}

func str(v any) string { return fmt.Sprint(v) }

// writeExecutable writes a program the tests then run. The daemon runs in
// the test process, and every pane start there forks: a child forked
// while this process held the file open for writing keeps that
// descriptor until its exec, and an exec of the file meanwhile fails with
// "text file busy" (ETXTBSY; golang/go#22315). So the file is written by
// cp, another process, from a copy this process wrote and never runs.
func writeExecutable(t testing.TB, path string, content []byte, mode os.FileMode) {
	t.Helper()
	src := path + ".src"
	if err := os.WriteFile(src, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", src, path).CombinedOutput(); err != nil {
		t.Fatalf("cp %s: %v: %s", path, err, out)
	}
	os.Remove(src)
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
