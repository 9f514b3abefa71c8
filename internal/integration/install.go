package integration

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Options are the choices of one install.
type Options struct {
	Env Env
	// Program is the tuios the hooks run. Empty keeps the program an
	// existing install runs, else uses Default.
	Program string
	Default string
	// StatusLine also points the harness's status line at tuios (Claude
	// Code), chaining to the person's own status line command or to Then.
	StatusLine bool
	Then       string
}

// Result says what an install or uninstall did.
type Result struct {
	Harness string   `json:"harness"`
	Changed bool     `json:"changed"`
	Files   []string `json:"files"`            // the files it wrote or would write
	Backup  string   `json:"backup,omitempty"` // the original's copy, when there is one
	Program string   `json:"program,omitempty"`
	Note    string   `json:"note,omitempty"` // what a person still has to do
}

func (h Harness) check(env Env) error {
	if h.Reports == ReportsNothing {
		return &Error{code: CodeNoIntegration, Harness: h.ID, Detail: h.Reason}
	}
	dir := h.ConfigDir(env)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return &Error{code: CodeNoConfigDir, Harness: h.ID, Path: dir}
	}
	return nil
}

// Install wires the harness's hooks (or writes its plugin).
func Install(h Harness, opt Options) (Result, error) {
	res := Result{Harness: h.ID, Files: []string{h.File(opt.Env)}, Note: h.notes}
	if err := h.check(opt.Env); err != nil {
		return res, err
	}
	if opt.StatusLine && !h.statusLine {
		return res, &Error{code: CodeNoIntegration, Harness: h.ID, Detail: "tuios feeds only Claude Code's status line"}
	}
	path := h.File(opt.Env)
	var err error
	switch {
	case h.hooks != nil || h.doc() != nil:
		// A file of tuios's own in a directory of the harness's (Grok's
		// hooks/tuios.json) may be the first in that directory.
		if _, serr := os.Lstat(path); os.IsNotExist(serr) {
			if merr := os.MkdirAll(filepath.Dir(path), 0o755); merr != nil {
				return res, &Error{code: CodeCannotWrite, Path: path, Detail: merr.Error()}
			}
		}
	}
	switch {
	case h.doc() != nil:
		res.Changed, res.Program, err = installDoc(h, h.doc(), path, opt)
	case h.hooks != nil:
		// The original is the file before tuios's first install: a file
		// holding tuios's entries already is not it (and there is no
		// original when tuios creates the file).
		original := func(old string) bool {
			ours, _, _, err := h.hooks.state(old, h.ID, h.Version)
			return err == nil && !ours
		}
		res.Changed, err = editFileKeeping(path, original, func(old string, _ bool) (string, error) {
			prog := opt.Program
			if prog == "" {
				if _, _, cmd, err := h.hooks.state(old, h.ID, h.Version); err == nil {
					prog = programOf(cmd)
				}
			}
			if prog == "" {
				prog = opt.Default
			}
			res.Program = prog
			out, err := h.hooks.install(old, h.ID, h.HookCommand(prog))
			if err == nil && opt.StatusLine {
				out, err = h.installStatusLine(out, prog, opt.Then)
				if ie, ok := err.(*Error); ok { // statusline.go: a refusal, not a parse error
					ie.Path = path
					return "", ie
				}
			}
			if err != nil {
				return "", &Error{code: CodeCannotRead, Path: path, Detail: err.Error()}
			}
			return out, nil
		})
	case h.owned != nil:
		res.Changed, res.Program, err = writeOwned(h, path, opt)
	}
	if err == nil && res.Changed {
		if real, rerr := resolve(path); rerr == nil { // the backup sits beside a symlink's target
			if _, err := os.Stat(real + BackupSuffix); err == nil {
				res.Backup = real + BackupSuffix
			}
		}
	}
	return res, err
}

func writeOwned(h Harness, path string, opt Options) (bool, string, error) {
	old, exists, err := readFile(path)
	if err != nil {
		return false, "", err
	}
	if ours, _ := ownedState(old, exists, h.ID); exists && !ours {
		return false, "", &Error{code: CodeNotOurs, Harness: h.ID, Path: path}
	}
	prog := opt.Program
	if prog == "" && exists {
		prog = programInOwned(old, h.owned.comment)
	}
	if prog == "" {
		prog = opt.Default
	}
	next := h.owned.text(h, prog)
	if exists && next == old {
		return false, prog, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, prog, &Error{code: CodeCannotWrite, Path: path, Detail: err.Error()}
	}
	return true, prog, writeAtomic(path, next)
}

// Uninstall removes exactly what Install wrote.
func Uninstall(h Harness, env Env) (Result, error) {
	path := h.File(env)
	res := Result{Harness: h.ID, Files: []string{path}}
	if h.Reports == ReportsNothing {
		return res, &Error{code: CodeNoIntegration, Harness: h.ID, Detail: h.Reason}
	}
	var err error
	switch {
	case h.doc() != nil:
		res.Changed, err = uninstallDoc(h, h.doc(), path)
	case h.hooks != nil:
		if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
			return res, nil
		}
		real, rerr := resolve(path)
		if rerr != nil {
			return res, rerr
		}
		// A backup that holds tuios's own entries is no original (an
		// older tuios copied the file it had created itself): it is
		// neither restored from nor kept.
		bakPath := real + BackupSuffix
		bak, hasBak, _ := readFile(bakPath)
		if hasBak {
			if ours, _, _, _ := h.hooks.state(bak, h.ID, h.Version); ours {
				if err := removeFile(bakPath); err != nil {
					return res, err
				}
				bak, hasBak = "", false
			}
		}
		never := func(string) bool { return false } // the file being undone is no original
		res.Changed, err = editFileKeeping(path, never, func(old string, exists bool) (string, error) {
			if !exists {
				return old, nil
			}
			out, err := h.hooks.uninstall(old, h.ID)
			if err == nil && h.statusLine {
				out, err = h.uninstallStatusLine(out, bak)
			}
			if err != nil {
				return "", &Error{code: CodeCannotRead, Path: path, Detail: err.Error()}
			}
			return out, nil
		})
		// No original was kept, so tuios created the file: once nothing
		// but an empty object is left, the file goes too.
		if err == nil && res.Changed && !hasBak && real == path {
			if text, ok, _ := readFile(path); ok && h.hooks.leftEmpty(text) {
				if err = removeFile(path); err == nil {
					res.Changed = true
					res.Note = "removed " + path + ": tuios had created it and nothing else is in it"
				}
			}
		}
	case h.owned != nil:
		old, exists, rerr := readFile(path)
		if rerr != nil || !exists {
			return res, rerr
		}
		if ours, _ := ownedState(old, exists, h.ID); !ours {
			return res, &Error{code: CodeNotOurs, Harness: h.ID, Path: path}
		}
		err = removeFile(path)
		res.Changed = err == nil
	}
	return res, err
}
