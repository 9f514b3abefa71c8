package detect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fakeStat is a /proc/<pid>/stat line: comm, the pids, the start time and
// the image (arg_start and env_end, fields 48 and 51).
func fakeStat(pid int, comm string, pgrp, tpgid int, start, argStart, envEnd uint64) string {
	f := make([]string, 52)
	for i := range f {
		f[i] = "0"
	}
	f[0], f[1], f[2] = fmt.Sprint(pid), "("+comm+")", "S"
	f[3], f[4], f[5], f[7] = "1", fmt.Sprint(pgrp), fmt.Sprint(pgrp), fmt.Sprint(tpgid)
	f[19], f[21] = "1", fmt.Sprint(start)
	f[47], f[50] = fmt.Sprint(argStart), fmt.Sprint(envEnd)
	return strings.Join(f, " ") + "\n"
}

// replace writes name under dir whole, as the kernel's view of a file
// changes at once.
func replace(t *testing.T, dir, name, text string) {
	t.Helper()
	tmp := filepath.Join(dir, name+".new")
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// A process caught as it execs an agent: read as its old program (the
// shell's fork, bash), and its stat re-read as the new one (claude). The
// reading is the old program's for now, and nothing of it is kept: the
// next read finds the agent. Kept, it answered every later read with the
// old view while the agent ran, and the pane stayed at none (a clean-clone
// run of the dashboard example saw that once).
func TestAReadCaughtInAnExecIsNotKept(t *testing.T) {
	root := t.TempDir()
	shell, leader := filepath.Join(root, "100"), filepath.Join(root, "200")
	for _, d := range []string{shell, leader} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	replace(t, shell, "stat", fakeStat(100, "bash", 100, 200, 4000, 1, 2))
	replace(t, leader, "stat", fakeStat(200, "bash", 200, 200, 5000, 10, 20))
	if err := os.Symlink("/opt/agentbin", filepath.Join(leader, "exe")); err != nil {
		t.Fatal(err)
	}
	// The old program's argv comes through a FIFO, so the exec can land
	// between the read of the stat line and the re-read through the
	// handle, as it can on a busy machine.
	cmdline := filepath.Join(leader, "cmdline")
	if err := syscall.Mkfifo(cmdline, 0o600); err != nil {
		t.Fatal(err)
	}
	d := NewDetector(DetectorOptions{Registry: testRegistry(t), ProcRoot: root})
	first := make(chan Match, 1)
	go func() {
		m, err := d.Detect(100)
		if err != nil {
			t.Error(err)
		}
		first <- m
	}()
	w, err := os.OpenFile(cmdline, os.O_WRONLY, 0) // returns once Detect opened it
	if err != nil {
		t.Fatal(err)
	}
	replace(t, leader, "stat", fakeStat(200, "claude", 200, 200, 5000, 30, 40)) // the exec
	w.Write([]byte("bash\x00"))
	w.Close()
	if m := <-first; m.Agent {
		t.Fatalf("the first read matched the old program as an agent: %+v", m)
	}
	os.Remove(cmdline)
	replace(t, leader, "cmdline", "claude\x00")
	m, err := d.Detect(100)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Agent || m.HarnessID != "claude-code" || m.Process.Comm != "claude" {
		t.Fatalf("after the exec: %+v, want claude-code", m)
	}
}
