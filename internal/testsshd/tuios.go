package testsshd

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BuildTuios builds the tuios binary of this module into dir and returns
// its path: the far side of a link runs its stdio-proxy. A caller that
// needs it in many tests builds it once (the go build cache makes a
// second build cheap, but not free).
func BuildTuios(t testing.TB, dir string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testsshd: cannot find the module root")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(dir, "tuios")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/tuios")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building tuios for the far side: %v\n%s", err, out)
	}
	return bin
}
