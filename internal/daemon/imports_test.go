package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The walls between the daemon's core and its features, as the import
// graph has them (doc.go, # Features): internal/daemon is the core and the
// composition root; internal/daemon/core is what a feature may see of it,
// interfaces and plain values; a feature package (internal/daemon/herdr,
// internal/daemon/agentlog, internal/daemon/resume, …) imports the core's
// interfaces and never the core's structs, nor another feature. Nothing
// imports upward, and go list finds no cycle. internal/daemon/rpc (the
// hub, the verb registry, the access declarations) is the core's own, in
// a package of its own: it is held to a feature's rule (core only), so
// it never reaches a feature, and no feature reaches it.
// internal/daemon/mux is the table of sessions and windows, which alone
// takes the table's lock: it imports the core's interfaces, the hub
// (rpc) and its own leaves, and asks everything else of the daemon
// through interfaces (mux.Daemon); no feature imports it. The packages
// under it (the tiling tree, mux/layout; a pane's terminal, mux/term)
// are its leaves: they import nothing of the daemon but each other, not
// even the core's interfaces.
func TestDaemonImportRules(t *testing.T) {
	t.Parallel()
	const root = "github.com/tuios/tuios/internal/daemon"
	iface := root + "/core"
	mux, rpc := root+"/mux", root+"/rpc"
	pkgs := goList(t, "./...")
	var features []string
	for _, p := range pkgs {
		if p.ImportPath == root || p.ImportPath == iface || !strings.HasPrefix(p.ImportPath, root+"/") {
			continue
		}
		features = append(features, p.ImportPath)
	}
	if len(features) == 0 {
		t.Fatal("go list found no feature package under internal/daemon")
	}
	for _, p := range pkgs {
		if p.Error != nil {
			t.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		for _, e := range p.DepsErrors {
			t.Errorf("%s: %s", p.ImportPath, e.Err) // an import cycle is one
		}
		if !strings.HasPrefix(p.ImportPath, root+"/") {
			continue
		}
		// The package's own tests count: an in-package test that reached
		// the core's structs would be a feature that needs them.
		for _, imp := range append(append([]string{}, p.Imports...), p.TestImports...) {
			if imp != root && !strings.HasPrefix(imp, root+"/") {
				continue
			}
			switch {
			case strings.HasPrefix(p.ImportPath, root+"/mux/"):
				if !strings.HasPrefix(imp, root+"/mux/") {
					t.Errorf("%s imports %s: the core's leaves under mux import nothing of the daemon", p.ImportPath, imp)
				}
			case p.ImportPath == mux:
				if imp != iface && imp != rpc && !strings.HasPrefix(imp, root+"/mux/") {
					t.Errorf("%s imports %s: the table imports only the core's interfaces, the hub and its leaves; what it asks of a feature goes through mux.Daemon", mux, imp)
				}
			case p.ImportPath == iface:
				t.Errorf("%s imports %s: the core's interfaces import nothing of the daemon", iface, imp)
			case imp == root:
				t.Errorf("%s imports the core's structs (%s): a feature sees the core only through %s", p.ImportPath, root, iface)
			case imp != iface:
				t.Errorf("%s imports %s: features reach each other only through the core", p.ImportPath, imp)
			}
		}
	}
	// The core composes every feature: one that nothing builds is dead.
	var core *listedPackage
	for i := range pkgs {
		if pkgs[i].ImportPath == root {
			core = &pkgs[i]
		}
	}
	if core == nil {
		t.Fatal("go list did not list " + root)
	}
	for _, f := range features {
		if strings.HasPrefix(f, mux+"/") {
			continue // the table's leaves: mux builds them
		}
		found := false
		for _, imp := range core.Imports {
			found = found || imp == f
		}
		if !found {
			t.Errorf("%s is under internal/daemon but the core does not build it", f)
		}
	}
}

// listedPackage is what go list -json says of a package that these
// tests read.
type listedPackage struct {
	ImportPath  string
	Imports     []string
	TestImports []string
	Error       *struct{ Err string }
	DepsErrors  []struct{ Err string }
}

// goList lists the packages pattern names under this directory.
func goList(t *testing.T, pattern string) []listedPackage {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool on PATH to list the packages")
	}
	cmd := exec.Command("go", "list", "-e", "-json", pattern)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}
