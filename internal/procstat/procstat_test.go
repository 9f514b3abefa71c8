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
