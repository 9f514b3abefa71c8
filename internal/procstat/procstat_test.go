package procstat

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
)

func TestParentAndSessionOfARealProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if got := Parent(os.Getpid()); got != os.Getppid() {
		t.Fatalf("Parent = %d, want %d", got, os.Getppid())
	}
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if got := Session(cmd.Process.Pid); got != cmd.Process.Pid {
		t.Fatalf("a session leader's Session = %d, want its own pid %d", got, cmd.Process.Pid)
	}
	if got := Parent(cmd.Process.Pid); got != os.Getpid() {
		t.Fatalf("Parent of our child = %d, want %d", got, os.Getpid())
	}
	if Parent(1<<30) != 0 || Session(-1) != 0 {
		t.Fatal("an unknown pid must read 0")
	}
}

func TestReadAZombieAndItsStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	self, err := Read(os.Getpid())
	if err != nil || self.Zombie() || self.Start == 0 || self.PID != os.Getpid() {
		t.Fatalf("Read(self) = %+v, %v", self, err)
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	// Not reaped yet: it turns into a zombie that still names its parent,
	// its session and a start no earlier than ours.
	var st Stat
	for st, err = Read(cmd.Process.Pid); err == nil && !st.Zombie(); st, err = Read(cmd.Process.Pid) {
		runtime.Gosched()
	}
	if err != nil || st.Parent != os.Getpid() || st.Session != self.Session || st.Start < self.Start {
		t.Fatalf("the zombie reads %+v, %v (we are %+v)", st, err, self)
	}
	if _, err := Read(1 << 30); err == nil {
		t.Fatal("an unknown pid must fail")
	}
}

func TestParseTakesAnyCommandName(t *testing.T) {
	tail := " S 7 8 9 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0"
	for _, comm := range []string{"(sh)", "(a) b)", "((x)", "( )", "(a\nb)"} {
		st, err := Parse([]byte("42 " + comm + tail))
		if err != nil || st.PID != 42 || st.State != 'S' || st.Parent != 7 || st.Session != 9 || st.Start != 12345 {
			t.Fatalf("%q: %+v, %v", comm, st, err)
		}
	}
	for _, bad := range []string{"", "42", "42 (sh)", "x (sh)" + tail, "42 (sh) S 7 8 9", "-1 (sh)" + tail, "42 (sh) SS 7 8 9 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 1 0 0"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("42 (sh) S 7 8 9 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0"))
	f.Add([]byte("1 (a) b) Z 0 0 0"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := Parse(b)
		if err == nil && (st.PID <= 0 || st.Parent < 0 || st.Session < 0) {
			t.Fatalf("%q: %+v", b, st)
		}
	})
}

func TestCwd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got := Cwd(os.Getpid()); got != wd {
		t.Errorf("Cwd(self) = %q, want %q", got, wd)
	}
	// A removed directory names nowhere: a child started in one.
	dir := t.TempDir()
	cmd := exec.Command("sleep", "30")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if got := Cwd(cmd.Process.Pid); got != dir {
		t.Errorf("Cwd(child) = %q, want %q", got, dir)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if got := Cwd(cmd.Process.Pid); got != "" {
		t.Errorf("Cwd of a process in a removed directory = %q, want none", got)
	}
	if got := Cwd(0); got != "" {
		t.Errorf("Cwd(0) = %q", got)
	}
}
