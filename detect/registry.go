package detect

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// LoadOptions says where Load finds manifests.
type LoadOptions struct {
	// UserDir holds user manifests (*.toml, read in name order). Empty
	// means $TUIOS_HARNESS_DIR, else $XDG_CONFIG_HOME/tuios/harnesses,
	// else ~/.config/tuios/harnesses. A missing directory is not an error.
	UserDir string
	// NoUser skips user manifests.
	NoUser bool
	// NoBundled skips the manifests compiled into the binary.
	NoBundled bool
	// Env reads the environment; nil means os.Getenv.
	Env func(string) string
	// Bundled replaces the embedded manifests (files *.toml at its root);
	// nil means BundledFS's harnesses directory.
	Bundled fs.FS
}

// Registry is a loaded, validated set of manifests in lookup order:
// higher priority first, then id ascending. It is read-only and safe for
// concurrent use.
type Registry struct {
	list []*Manifest
	byID map[string]*Manifest
}

// NewRegistry builds a registry from manifests already parsed (with
// ParseManifest). A later manifest replaces an earlier one with the same id.
func NewRegistry(ms ...*Manifest) *Registry {
	r := &Registry{byID: make(map[string]*Manifest, len(ms))}
	for _, m := range ms {
		if m != nil {
			r.byID[m.ID] = m
		}
	}
	r.sort()
	return r
}

func (r *Registry) sort() {
	r.list = r.list[:0]
	for _, m := range r.byID {
		r.list = append(r.list, m)
	}
	sort.Slice(r.list, func(i, j int) bool {
		a, b := r.list[i], r.list[j]
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		return a.ID < b.ID
	})
}

// Manifests returns the manifests in lookup order. The slice is a copy;
// the manifests are shared and must not be modified.
func (r *Registry) Manifests() []*Manifest {
	if r == nil {
		return nil
	}
	return append([]*Manifest(nil), r.list...)
}

// Len is the number of manifests.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	return len(r.list)
}

// Lookup finds a manifest by id.
func (r *Registry) Lookup(id string) (*Manifest, bool) {
	if r == nil {
		return nil, false
	}
	m, ok := r.byID[id]
	return m, ok
}

// UserDir resolves the user manifest directory as Load does.
func UserDir(opts LoadOptions) string {
	if opts.UserDir != "" {
		return opts.UserDir
	}
	env := opts.Env
	if env == nil {
		env = os.Getenv
	}
	if d := env("TUIOS_HARNESS_DIR"); d != "" {
		return d
	}
	if x := env("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "tuios", "harnesses")
	}
	home := env("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "tuios", "harnesses")
}

// Load reads the bundled manifests, then the user directory. A user
// manifest whose id equals a bundled one replaces it whole (an omitted
// block is gone, not inherited); within the directory a later file wins.
// Loading never fails as a whole: every file that cannot be read, parsed or
// validated is returned as a LoadError and skipped, and the rest load.
func Load(opts LoadOptions) (*Registry, []LoadError) {
	r := &Registry{byID: map[string]*Manifest{}}
	var errs []LoadError
	add := func(data []byte, source string, bundled bool) {
		m, err := ParseManifest(data, source)
		if err != nil {
			errs = append(errs, *err.(*LoadError))
			return
		}
		if bundled {
			m.Source = "bundled"
		} else {
			m.Source = source
			if old, ok := r.byID[m.ID]; ok && (old.Source == "bundled" || old.ReplacesBundled) {
				m.ReplacesBundled = true
			}
		}
		r.byID[m.ID] = m
	}
	if !opts.NoBundled {
		fsys := opts.Bundled
		if fsys == nil {
			sub, err := fs.Sub(bundledFiles, "harnesses")
			if err == nil {
				fsys = sub
			}
		}
		if fsys != nil {
			names, _ := fs.Glob(fsys, "*.toml")
			sort.Strings(names)
			for _, n := range names {
				data, err := fs.ReadFile(fsys, n)
				src := path.Join("bundled", n)
				if err != nil {
					errs = append(errs, LoadError{Source: src, code: CodeRead, Reason: err.Error()})
					continue
				}
				add(data, src, true)
			}
		}
	}
	if !opts.NoUser {
		if dir := UserDir(opts); dir != "" {
			ents, err := os.ReadDir(dir)
			if err != nil && !os.IsNotExist(err) {
				errs = append(errs, LoadError{Source: dir, code: CodeRead, Reason: err.Error()})
			}
			for _, e := range ents { // ReadDir sorts by name
				if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
					continue
				}
				p := filepath.Join(dir, e.Name())
				data, err := os.ReadFile(p)
				if err != nil {
					errs = append(errs, LoadError{Source: p, code: CodeRead, Reason: err.Error()})
					continue
				}
				add(data, p, false)
			}
		}
	}
	r.sort()
	return r, errs
}
