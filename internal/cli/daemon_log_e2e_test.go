package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A daemon a verb starts logs to daemon.log next to its socket: every
// line has a time and a level, a config problem is a warning, and a line
// about one pane says which pane and session.
func TestDaemonLogHasTimeLevelAndPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	conf := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(conf), 0o700))
	must(t, os.WriteFile(conf, []byte("[daemon]\nno_such_key = 1\n"), 0o600))
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "lead", "--no-focus")
	var ws struct {
		Windows []struct {
			ID   string `json:"window_id"`
			Name string `json:"name"`
		} `json:"windows"`
	}
	e.json(&ws, "list-windows", "-s", "work")
	lead := ""
	for _, w := range ws.Windows {
		if w.Name == "lead" {
			lead = w.ID
		}
	}
	e.ok("set-pane-grants", "-s", "work", "-w", "lead", "--grants", "read")

	b, err := os.ReadFile(filepath.Join(e.dir, "run", "tuios", "daemon.log"))
	must(t, err)
	log := string(b)
	line := regexp.MustCompile(`^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\S* level=(DEBUG|INFO|WARN|ERROR) msg=`)
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if !line.MatchString(l) {
			t.Errorf("a line without a time and a level: %q", l)
		}
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`level=WARN msg="config \S+config.toml: unknown key daemon.no_such_key \(ignored\)"`),
		regexp.MustCompile(`level=INFO msg="tuios daemon listening on \S+tuios.sock" pid=\d+`),
		regexp.MustCompile(`level=INFO msg="grants: window ` + lead[:8] + ` of work now holds read [^"]*" pane=` + lead + ` session=work`),
	} {
		if !want.MatchString(log) {
			t.Errorf("daemon.log has no line like %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, "level=DEBUG") {
		t.Errorf("debug lines at the default level:\n%s", log)
	}
}

// tuios daemon --log-file owns its file: past --log-max-size it moves it
// to FILE.1 and begins a new one, and its stderr follows (a crash's trace
// would land in the current file); --log-level debug logs each request.
func TestDaemonLogRotatesAndStderrFollows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	must(t, os.MkdirAll(filepath.Dir(e.socket()), 0o700))
	path := filepath.Join(e.dir, "run", "own.log")
	cmd := exec.Command(e.bin, "daemon", "--socket", e.socket(), "--log-file", path, "--log-max-size", "4096", "--log-level", "debug")
	cmd.Env = e.vars
	must(t, cmd.Start())
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(read(path), "listening on"); {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not say it listens:\n%s", read(path))
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(path + ".1"); err == nil {
			break
		}
		if i == 500 {
			t.Fatalf("no rotation after %d requests:\n%s", i, read(path))
		}
		e.ok("ls")
	}
	e.ok("ls") // a line in the new file
	old, cur := read(path+".1"), read(path)
	if !strings.Contains(old, "listening on") || !strings.Contains(old, "level=DEBUG msg=request verb=list-sessions took=") {
		t.Errorf("own.log.1:\n%s", old)
	}
	if len(old) > 4096 || len(cur) > 4096 || !strings.HasPrefix(cur, "time=") || !strings.Contains(cur, "verb=list-sessions") {
		t.Errorf("own.log.1 %d bytes, own.log %d bytes:\n%s", len(old), len(cur), cur)
	}
	for _, fd := range []string{"1", "2"} {
		if target, err := os.Readlink("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/fd/" + fd); err != nil || target != path {
			t.Errorf("the daemon's descriptor %s is %q (%v), want the new %s", fd, target, err, path)
		}
	}
	e.ok("kill-server")
	select {
	case <-exited:
		if waitErr != nil {
			t.Errorf("the daemon exited with %v", waitErr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the daemon did not stop")
	}
	if !strings.Contains(read(path), `msg="tuios daemon stopped"`) {
		t.Errorf("own.log at the end:\n%s", read(path))
	}
	if r := e.run("daemon", "--log-level", "loud"); r.code == 0 || !strings.Contains(r.err, "--log-level") {
		t.Errorf("--log-level loud: exit %d %s", r.code, r.err)
	}
}
