package gitindex_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tuios/tuios/internal/gitindex"
)

// Stage into a private copy of a repository's index; the real index is
// never touched.
func ExampleCopy() {
	dir, _ := os.MkdirTemp("", "gitindex")
	defer os.RemoveAll(dir)
	index := filepath.Join(dir, "index")
	os.WriteFile(index, []byte("DIRC"), 0o644)
	private := filepath.Join(dir, "private-index")
	if err := gitindex.Copy(index, private); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("git runs with GIT_INDEX_FILE=" + filepath.Base(private))
	// Output: git runs with GIT_INDEX_FILE=private-index
}
