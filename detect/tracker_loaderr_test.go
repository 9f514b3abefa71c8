package detect_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect"
)

// A user manifest that does not load is told to OnLoadError and kept for
// LoadErrors; the other manifests load.
func TestTrackerReportsManifestsItCouldNotLoad(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.toml")
	if err := os.WriteFile(bad, []byte("schema_version = 1\nid = = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TUIOS_HARNESS_DIR", dir)
	var told []detect.LoadError
	tr, _ := quietTracker(t, detect.TrackerOptions{DetectInterval: -1,
		OnLoadError: func(e detect.LoadError) { told = append(told, e) }})
	if len(told) != 1 || told[0].Source != bad || told[0].Code() != detect.CodeParse {
		t.Fatalf("OnLoadError was told %+v", told)
	}
	if !strings.Contains(fmt.Sprint(told[0]), bad) {
		t.Fatalf("a LoadError value prints as %q", fmt.Sprint(told[0]))
	}
	var err error = told[0]
	var le detect.LoadError
	if !errors.As(err, &le) || le.Source != bad {
		t.Fatalf("errors.As: %v", err)
	}
	got := tr.LoadErrors()
	if len(got) != 1 || got[0] != told[0] {
		t.Fatalf("LoadErrors %+v", got)
	}
	got[0].Source = "changed"
	if tr.LoadErrors()[0].Source != bad {
		t.Fatal("LoadErrors returned the tracker's own slice")
	}
	if _, ok := tr.Detector().Registry().Lookup("claude-code"); !ok {
		t.Fatal("one broken user manifest stopped the bundled ones from loading")
	}

	// A tracker given its registry loaded nothing itself.
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})
	called := false
	tr2, _ := quietTracker(t, detect.TrackerOptions{Registry: reg, OnLoadError: func(detect.LoadError) { called = true }})
	if called || len(tr2.LoadErrors()) != 0 {
		t.Fatal("a tracker that loaded nothing reported load errors")
	}
}
