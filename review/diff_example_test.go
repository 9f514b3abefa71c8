package review_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/tuios/tuios/review"
)

// An embedder diffs a worktree and renders the typed result itself.
func ExampleComputeDiff() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=x", "GIT_AUTHOR_EMAIL=x@x", "GIT_COMMITTER_NAME=x", "GIT_COMMITTER_EMAIL=x@x")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Run()
	}
	git("init", "-q")
	os.WriteFile(dir+"/a.txt", []byte("hi\n"), 0o644)
	git("add", "a.txt")
	git("commit", "-qm", "base")
	os.WriteFile(dir+"/a.txt", []byte("hi\nchange\n"), 0o644)
	os.WriteFile(dir+"/b.txt", []byte("new\n"), 0o644)

	d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Context: 3, Env: env})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("vs %s: %d files, +%d -%d\n", d.Base, d.Totals.Files, d.Totals.Added, d.Totals.Removed)
	for _, f := range d.Files {
		fmt.Println(f.Status, f.Path)
		for _, h := range f.Hunks {
			fmt.Println(" ", h.Header)
			for _, l := range h.Lines {
				fmt.Printf("  %-7s %d %q\n", l.Op, l.New, l.Text)
			}
		}
	}
	// Output:
	// vs HEAD: 2 files, +2 -0
	// M a.txt
	//   @@ -1 +1,2 @@
	//   context 1 "hi"
	//   add     2 "change"
	// U b.txt
	//   @@ -0,0 +1 @@
	//   add     1 "new"
}
