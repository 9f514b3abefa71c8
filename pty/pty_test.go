package pty

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestEchoRoundTrip(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh"}, Env: shEnv()})
	c := collect(p)
	if _, err := p.Write([]byte("echo hi-$((40+2))\n")); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "hi-42", 0)
	if _, err := p.Write([]byte("exit 3\n")); err != nil {
		t.Fatal(err)
	}
	st, err := p.Wait()
	if err != nil || st.Code != 3 || st.Signaled() {
		t.Fatalf("Wait = %v, %v; want exit status 3", st, err)
	}
	<-c.done
	if c.err != io.EOF {
		t.Fatalf("read ended with %v, want io.EOF", c.err)
	}
}

func TestExitCode(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "exit 7"}})
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if st.Code != 7 || st.Signal != 0 || st.Success() || st.String() != "exit status 7" {
		t.Fatalf("status = %+v (%v)", st, st)
	}
	p2 := mustStart(t, Options{Argv: []string{"true"}})
	if st, _ := p2.Wait(); !st.Success() {
		t.Fatalf("true: %v", st)
	}
}

func TestSignalStatus(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sleep", "30"}})
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if st.Signal != syscall.SIGTERM || st.Code != -1 || !st.Signaled() {
		t.Fatalf("status = %+v", st)
	}
	if !strings.Contains(st.String(), "terminated") {
		t.Fatalf("String() = %q", st.String())
	}
	var pe *Error
	if err := p.Signal(syscall.SIGTERM); !errors.As(err, &pe) || pe.Code() != CodeProcessDone {
		t.Fatalf("Signal after exit = %v, want %s", err, CodeProcessDone)
	}
	if err := p.SignalGroup(syscall.SIGTERM); !errors.As(err, &pe) || pe.Code() != CodeProcessDone {
		t.Fatalf("SignalGroup after exit = %v, want %s", err, CodeProcessDone)
	}
}

func TestSignalGroup(t *testing.T) {
	// A non-interactive sh runs sleep in its own group (no job control).
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "sleep 30; echo survived"}})
	time.Sleep(50 * time.Millisecond)
	if err := p.SignalGroup(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	st, _ := p.Wait()
	if st.Signal != syscall.SIGKILL {
		t.Fatalf("status = %v", st)
	}
}

func TestWaitConcurrent(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "sleep 0.1; exit 5"}})
	var wg sync.WaitGroup
	res := make([]ExitStatus, 8)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], _ = p.Wait()
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); p.Close() }()
	wg.Wait()
	for i, st := range res {
		if st != res[0] {
			t.Fatalf("Wait %d = %v, Wait 0 = %v", i, st, res[0])
		}
	}
	if st, _ := p.Wait(); st != res[0] {
		t.Fatalf("Wait after Close = %v, want %v", st, res[0])
	}
}

func TestCloseKillsAndIsIdempotent(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sleep", "30"}})
	c := collect(p)
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v", d)
	}
	st, err := p.Wait()
	if err != nil || st.Signal != syscall.SIGKILL {
		t.Fatalf("Wait after Close = %v, %v", st, err)
	}
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("Read not interrupted by Close")
	}
	if err := syscall.Kill(p.Pid(), 0); err == nil {
		t.Fatal("process still exists after Close")
	}
	var pe *Error
	if err := p.Resize(10, 10); !errors.As(err, &pe) || pe.Code() != CodeClosed {
		t.Fatalf("Resize after Close = %v", err)
	}
	if _, err := p.ForegroundPgrp(); !errors.As(err, &pe) || pe.Code() != CodeClosed {
		t.Fatalf("ForegroundPgrp after Close = %v", err)
	}
}

func TestCloseKillsForegroundJob(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh", "-i"}, Env: shEnv()})
	c := collect(p)
	c.waitFor(t, "$ ", 0)
	p.Write([]byte("sleep 300\n"))
	fg := waitForeground(t, p, func(g int) bool { return g != p.Pid() })
	p.Close()
	<-c.done
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(-fg, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("foreground job group %d survived Close", fg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "script")
	os.WriteFile(notExec, []byte("#!/bin/sh\necho hi\n"), 0o644)
	badFormat := filepath.Join(dir, "garbage")
	os.WriteFile(badFormat, []byte{0x7f, 'E', 'L', 'F', 1, 2, 3}, 0o755)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)

	cases := []struct {
		name string
		opts Options
		code Code
		path string
	}{
		{"empty argv", Options{}, CodeInvalidArgument, ""},
		{"bad size", Options{Argv: []string{"sh"}, Cols: -1}, CodeInvalidArgument, "sh"},
		{"not found in PATH", Options{Argv: []string{"no-such-command-xyz"}}, CodeCommandNotFound, "no-such-command-xyz"},
		{"not found by path", Options{Argv: []string{filepath.Join(dir, "nope")}}, CodeCommandNotFound, filepath.Join(dir, "nope")},
		{"PATH from Env", Options{Argv: []string{"sh"}, Env: []string{"PATH=" + dir}}, CodeCommandNotFound, "sh"},
		{"not executable", Options{Argv: []string{notExec}}, CodePermissionDenied, notExec},
		{"directory", Options{Argv: []string{dir}}, CodePermissionDenied, dir},
		{"exec format", Options{Argv: []string{badFormat}}, CodeStartFailed, badFormat},
		{"cwd missing", Options{Argv: []string{"sh"}, Dir: filepath.Join(dir, "gone")}, CodeCwdMissing, filepath.Join(dir, "gone")},
		{"cwd is a file", Options{Argv: []string{"sh"}, Dir: file}, CodeCwdMissing, file},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(tc.opts)
			if err == nil {
				p.Close()
				t.Fatal("Start succeeded")
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if pe.Code() != tc.code || pe.Path != tc.path || pe.Op != "start" {
				t.Fatalf("got code=%s path=%q op=%s (%v); want code=%s path=%q", pe.Code(), pe.Path, pe.Op, err, tc.code, tc.path)
			}
			if pe.Hint() == "" || !strings.HasPrefix(err.Error(), "pty: start") {
				t.Fatalf("message %q / hint %q", err.Error(), pe.Hint())
			}
		})
	}
}

func TestDirAndEnv(t *testing.T) {
	dir := t.TempDir()
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "pwd; echo \"v=$FOO\""}, Dir: dir, Env: []string{"PATH=/usr/bin:/bin", "FOO=bar"}})
	c := collect(p)
	p.Wait()
	<-c.done
	out := c.String()
	real, _ := filepath.EvalSymlinks(dir)
	if !strings.Contains(out, real) || !strings.Contains(out, "v=bar") {
		t.Fatalf("output %q", out)
	}
	// A relative command with a slash is resolved against Dir.
	os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\necho relative-ok\n"), 0o755)
	p2 := mustStart(t, Options{Argv: []string{"./run.sh"}, Dir: dir})
	c2 := collect(p2)
	c2.waitFor(t, "relative-ok", 0)
}

func TestResize(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh"}, Env: shEnv()})
	c := collect(p)
	p.Write([]byte("stty size\n"))
	off := c.waitFor(t, "24 80", 0)
	if err := p.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	if cols, rows, err := p.Size(); err != nil || cols != 100 || rows != 30 {
		t.Fatalf("Size = %d, %d, %v", cols, rows, err)
	}
	p.Write([]byte("stty size\n"))
	c.waitFor(t, "30 100", off)
	var pe *Error
	if err := p.Resize(0, 5); !errors.As(err, &pe) || pe.Code() != CodeInvalidArgument {
		t.Fatalf("Resize(0,5) = %v", err)
	}
	p2 := mustStart(t, Options{Argv: []string{"stty", "size"}, Cols: 120, Rows: 40})
	c2 := collect(p2)
	c2.waitFor(t, "40 120", 0)
}

func waitForeground(t *testing.T, p *Process, ok func(int) bool) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	last, lastErr := 0, error(nil)
	for time.Now().Before(deadline) {
		g, err := p.ForegroundPgrp()
		if err == nil && ok(g) {
			return g
		}
		last, lastErr = g, err
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("foreground group never matched; last %d, %v", last, lastErr)
	return 0
}

func TestForegroundPgrp(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh", "-i"}, Env: shEnv()})
	c := collect(p)
	c.waitFor(t, "$ ", 0)
	if g := waitForeground(t, p, func(g int) bool { return g == p.Pid() }); g != p.Pid() {
		t.Fatal("unreachable")
	}
	if g, err := ForegroundPgrpOf(p.Pid()); err != nil || g != p.Pid() {
		t.Fatalf("ForegroundPgrpOf at prompt = %d, %v; want %d", g, err, p.Pid())
	}
	p.Write([]byte("sleep 30\n"))
	// The shell hands the terminal to the job's group between fork and exec,
	// so the leader may still be named sh for a moment: wait for the exec.
	isSleep := func(g int) bool {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(g) + "/comm")
		return strings.TrimSpace(string(comm)) == "sleep"
	}
	fg := waitForeground(t, p, func(g int) bool { return g != p.Pid() && isSleep(g) })
	if g, err := ForegroundPgrpOf(p.Pid()); err != nil || g != fg {
		t.Fatalf("/proc fallback = %d, %v; want %d", g, err, fg)
	}
	p.Write([]byte{3}) // ^C interrupts the job; the shell takes the terminal back
	waitForeground(t, p, func(g int) bool { return g == p.Pid() })
}

func TestParseStatTpgid(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"1234 (bash) S 1 1234 1234 34816 5678 4194304 ...", 5678, true},
		{"1234 (a) b (c)) R 1 2 3 4 -1 0", -1, true},
		{"1 (x y z) S 0 1 1 0 42\n", 42, true},
		{"1 (x) S 0 1 1 0", 0, false},
		{"no paren", 0, false},
		{"1 (x) S 0 1 1 0 abc 4", 0, false},
		{"", 0, false},
	}
	for _, tc := range cases {
		got, err := parseStatTpgid([]byte(tc.in))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseStatTpgid(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func FuzzParseStatTpgid(f *testing.F) {
	f.Add([]byte("1234 (bash) S 1 1234 1234 34816 5678 4194304"))
	f.Add([]byte("1 ((() S 0 1 1 0 42"))
	f.Add([]byte(")"))
	f.Add([]byte("77 (a) b) Z 1 77 77 0 -1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseStatTpgid(b)
		parseStatSession(b)
		statZombie(b)
	})
}

func TestStatZombie(t *testing.T) {
	for in, want := range map[string]bool{
		"77 (sleep) Z 1 77 77 0 -1": true,
		"77 (a) Z) S 1 77 77 0 -1":  false, // the state follows the last ')'
		"77 (sleep) S 1 77 77 0 -1": false,
		"77 (sleep)":                false,
		"no paren":                  false,
	} {
		if got := statZombie([]byte(in)); got != want {
			t.Errorf("statZombie(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestEnvValue(t *testing.T) {
	if v, ok := envValue([]string{"PATH=/a", "X=1", "PATH=/b"}, "PATH"); !ok || v != "/b" {
		t.Fatal(v, ok)
	}
	if _, ok := envValue([]string{"PATHX=/a", "PAT=1"}, "PATH"); ok {
		t.Fatal("matched a prefix")
	}
}

func TestSetReadDeadline(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sleep", "30"}})
	if err := p.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Skip("no deadlines on this platform:", err)
	}
	start := time.Now()
	_, err := p.Read(make([]byte, 16))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("deadline took %v", d)
	}
}

func TestNilEnvInherits(t *testing.T) {
	t.Setenv("TUIOS_PTY_TEST_VAR", "inherited-value")
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "echo \"[$TUIOS_PTY_TEST_VAR]\""}})
	c := collect(p)
	c.waitFor(t, "[inherited-value]", 0)
}

// TestConcurrentUse runs every method at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"cat"}})
	c := collect(p)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	loop := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					f()
				}
			}
		}()
	}
	loop(func() { p.Write([]byte("x")) })
	loop(func() { p.Resize(80+time.Now().Nanosecond()%40, 24) })
	loop(func() { p.ForegroundPgrp() })
	loop(func() { p.Signal(syscall.SIGWINCH) })
	loop(func() { p.Size() })
	time.Sleep(200 * time.Millisecond)
	var cwg sync.WaitGroup
	for i := 0; i < 3; i++ {
		cwg.Add(2)
		go func() { defer cwg.Done(); p.Close() }()
		go func() { defer cwg.Done(); p.Wait() }()
	}
	cwg.Wait()
	close(stop)
	wg.Wait()
	<-c.done
	if st, _ := p.Wait(); st.Signal != syscall.SIGKILL {
		t.Fatalf("status %v", st)
	}
}
