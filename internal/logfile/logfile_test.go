package logfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// The panic test runs this binary again as a process that logs and panics.
func TestMain(m *testing.M) {
	if path := os.Getenv("LOGFILE_PANIC_AT"); path != "" {
		l, err := Open(Options{Path: path, MaxBytes: 200, Redirect: []int{2}})
		if err != nil {
			os.Exit(3)
		}
		for i := range 5 { // past 200 bytes: rotated at least once
			fmt.Fprintf(l, "line %d before the panic, padded to be long enough\n", i)
		}
		panic("the daemon hit a bug")
	}
	os.Exit(m.Run())
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRotatesOnceAtTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	l, err := Open(Options{Path: path, MaxBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	line := func(i int) string { return fmt.Sprintf("line %02d %s\n", i, strings.Repeat("x", 21)) } // 30 bytes
	for i := range 10 {
		l.Write([]byte(line(i)))
	}
	// 3 lines fit in 100 bytes: 0-2, 3-5, 6-8 rotated away in turn, 9 new.
	if got, want := read(t, path), line(9); got != want {
		t.Errorf("daemon.log %q, want %q", got, want)
	}
	if got, want := read(t, path+".1"), line(6)+line(7)+line(8); got != want {
		t.Errorf("daemon.log.1 %q, want %q", got, want)
	}
	if m, _ := filepath.Glob(path + "*"); len(m) != 2 {
		t.Errorf("files: %v, want daemon.log and daemon.log.1 only", m)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestAnOversizeLogIsRotatedAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	os.WriteFile(path, []byte(strings.Repeat("old\n", 50)), 0o600)
	l, err := Open(Options{Path: path, MaxBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Write([]byte("new\n"))
	if got := read(t, path); got != "new\n" {
		t.Errorf("daemon.log %q", got)
	}
	if got := read(t, path+".1"); got != strings.Repeat("old\n", 50) {
		t.Errorf("daemon.log.1 holds %d bytes", len(got))
	}
}

// A redirected descriptor follows the log to its new file: what is
// written to it straight (a panic's trace) lands in the current log.
func TestRedirectedDescriptorsFollowTheRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "daemon.log")
	spare, err := os.Create(filepath.Join(dir, "spare"))
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	fd, err := unix.Dup(int(spare.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	raw := os.NewFile(uintptr(fd), "redirected")
	defer raw.Close()
	l, err := Open(Options{Path: path, MaxBytes: 50, Redirect: []int{fd}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	raw.WriteString("straight 1\n")
	l.Write([]byte(strings.Repeat("y", 45) + "\n")) // rotates: 11 + 46 > 50
	raw.WriteString("straight 2\n")
	if got := read(t, path+".1"); got != "straight 1\n" {
		t.Errorf("daemon.log.1 %q", got)
	}
	if got := read(t, path); got != strings.Repeat("y", 45)+"\nstraight 2\n" {
		t.Errorf("daemon.log %q", got)
	}
	if got := read(t, filepath.Join(dir, "spare")); got != "" {
		t.Errorf("the descriptor still wrote to its old file: %q", got)
	}
}

// Lines written at once from many goroutines are each whole, in one file
// or the other.
func TestConcurrentLinesStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	l, err := Open(Options{Path: path, MaxBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				fmt.Fprintf(l, "g%d i%03d %s\n", g, i, strings.Repeat("z", 20))
			}
		}()
	}
	wg.Wait()
	for _, p := range []string{path, path + ".1"} {
		for _, ln := range strings.Split(strings.TrimSuffix(read(t, p), "\n"), "\n") {
			if len(ln) != 28 || !strings.HasPrefix(ln, "g") {
				t.Fatalf("%s: a broken line %q", p, ln)
			}
		}
	}
	if fi, _ := os.Stat(path); fi.Size() > 4096 {
		t.Errorf("daemon.log is %d bytes, over the cap", fi.Size())
	}
}

// A process whose stderr is the log and that panics leaves the trace in
// the current log file, after its lines.
func TestAPanicsTraceLandsInTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LOGFILE_PANIC_AT="+path)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child did not fail: %s", out)
	}
	if len(out) != 0 {
		t.Errorf("the panic went to the old stderr too: %s", out)
	}
	log := read(t, path)
	if !strings.Contains(log, "line 4 before the panic") || !strings.Contains(log, "panic: the daemon hit a bug") || !strings.Contains(log, "goroutine 1") {
		t.Errorf("daemon.log:\n%s", log)
	}
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Errorf("no rotation happened before the panic: %v", err)
	}
}
