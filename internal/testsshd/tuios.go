package testsshd

import (
	"path/filepath"
	"testing"

	"github.com/tuios/tuios/internal/e2e"
)

// BuildTuios builds the tuios binary of this module into dir and returns
// its path: the far side of a link runs its stdio-proxy. A caller that
// needs it in many tests builds it once (the go build cache makes a
// second build cheap, but not free).
func BuildTuios(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "tuios")
	e2e.Build(t, "./cmd/tuios", bin)
	return bin
}
