package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tuios/tuios/internal/atomicfile"
)

func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state", "items.json")

	// A crash at any point leaves the old items.json or the new one.
	err := atomicfile.WriteFile(path, []byte(`{"items":[]}`), atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	b, _ := os.ReadFile(path)
	fmt.Println(string(b), err)
	// Output: {"items":[]} <nil>
}
