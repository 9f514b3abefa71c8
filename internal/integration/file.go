package integration

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tuios/tuios/internal/atomicfile"
)

// BackupSuffix names the copy of a settings file as it was before tuios
// first changed it.
const BackupSuffix = ".tuios.bak"

// resolve follows a symlinked settings file to the file it names. A link
// to nothing is refused: writing through it would create a file where the
// person did not expect one.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", &Error{code: CodeBrokenLink, Path: path}
	}
	return real, nil
}

// readFile returns the file's text, and whether it exists.
func readFile(path string) (string, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, &Error{code: CodeCannotRead, Path: path, Detail: err.Error()}
	}
	return string(b), true, nil
}

// editFile runs change over a file's text and writes the result. It
// writes nothing when the text is unchanged, keeps the first original as
// path+BackupSuffix, replaces the file atomically, and when the file
// changes under it (the harness saved it meanwhile) starts over once, then
// refuses.
func editFile(path string, change func(old string, exists bool) (string, error)) (changed bool, err error) {
	return editFileKeeping(path, func(string) bool { return true }, change)
}

// editFileKeeping is editFile that backs up only an existing file that
// original says is the person's original: a file tuios has already
// written into (or created) is not one, and its copy would hand tuios's
// own entries back to whoever restores it.
func editFileKeeping(path string, original func(old string) bool, change func(old string, exists bool) (string, error)) (changed bool, err error) {
	real, err := resolve(path)
	if err != nil {
		return false, err
	}
	for attempt := 0; ; attempt++ {
		old, exists, err := readFile(real)
		if err != nil {
			return false, err
		}
		next, err := change(old, exists)
		if err != nil {
			return false, err
		}
		if exists && next == old {
			return false, nil
		}
		now, nowExists, err := readFile(real)
		if err != nil {
			return false, err
		}
		if now != old || nowExists != exists {
			if attempt == 0 {
				continue
			}
			return false, &Error{code: CodeChangedDuringEdit, Path: path}
		}
		if exists && original(old) {
			if err := backup(real, old); err != nil {
				return false, err
			}
		}
		return true, writeAtomic(real, next)
	}
}

// backup writes the original once; a backup that exists is never touched.
func backup(real, old string) error {
	bak := real + BackupSuffix
	if _, err := os.Lstat(bak); err == nil {
		return nil
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(real); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.OpenFile(bak, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return &Error{code: CodeCannotWrite, Path: bak, Detail: err.Error()}
	}
	_, err = f.WriteString(old)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &Error{code: CodeCannotWrite, Path: bak, Detail: err.Error()}
	}
	return nil
}

// writeAtomic replaces path with text through a temporary file in the
// same directory, keeping the old file's permissions.
func writeAtomic(path, text string) error {
	opt := atomicfile.Options{Perm: 0o644, KeepMode: true, Pattern: "." + filepath.Base(path) + ".tuios-*"}
	if err := atomicfile.WriteFile(path, []byte(text), opt); err != nil {
		return &Error{code: CodeCannotWrite, Path: path, Detail: err.Error()}
	}
	return nil
}

// removeFile removes a file tuios owns whole.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{code: CodeCannotWrite, Path: path, Detail: err.Error()}
	}
	return nil
}

// emptyObject says whether text is a JSON object with nothing in it: what
// is left of a settings file tuios created once its entries are gone.
func emptyObject(text string) bool {
	return strings.Join(strings.Fields(text), "") == "{}"
}
