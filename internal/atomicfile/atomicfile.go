package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Options say how the new file is made.
type Options struct {
	// Perm is the new file's permission bits; zero is 0600.
	Perm fs.FileMode
	// KeepMode gives the new file the permission bits of the file it
	// replaces, when there is one (Perm otherwise).
	KeepMode bool
	// MkdirPerm, when not zero, creates the directory and its parents
	// with these bits first.
	MkdirPerm fs.FileMode
	// Pattern names the temporary file (os.CreateTemp's pattern, "*"
	// replaced by random text); empty is ".NAME.tmp-*" for a target
	// NAME, or ".tmp-*" for Create.
	Pattern string
}

// WriteFile replaces path with data.
func WriteFile(path string, data []byte, opt Options) error {
	return WriteWith(path, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith replaces path with what write writes. If write returns an
// error, path is left as it was and the error is returned.
func WriteWith(path string, opt Options, write func(io.Writer) error) error {
	if opt.Pattern == "" {
		opt.Pattern = "." + filepath.Base(path) + ".tmp-*"
	}
	if opt.KeepMode {
		if fi, err := os.Stat(path); err == nil {
			opt.Perm = fi.Mode().Perm()
		}
	}
	f, err := Create(filepath.Dir(path), opt)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit(path)
}

// File is a new file being written in a directory, not yet in place.
// Commit puts it in place; Abort, or an error from Commit, removes it.
type File struct {
	f      *os.File
	dir    string
	perm   fs.FileMode
	synced bool // flushed, given its mode and closed
	done   bool // renamed or removed
}

// Create starts a new file in dir. opt.KeepMode is not used: the target
// is named only at Commit.
func Create(dir string, opt Options) (*File, error) {
	if opt.Perm == 0 {
		opt.Perm = 0o600
	}
	if opt.Pattern == "" {
		opt.Pattern = ".tmp-*"
	}
	if opt.MkdirPerm != 0 {
		if err := os.MkdirAll(dir, opt.MkdirPerm); err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp(dir, opt.Pattern)
	if err != nil {
		return nil, err
	}
	return &File{f: f, dir: filepath.Clean(dir), perm: opt.Perm}, nil
}

// Write writes to the new file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Name is the temporary file's path.
func (f *File) Name() string { return f.f.Name() }

// Commit puts the new file in place at path (Rename), then flushes the
// directory so the rename outlives a power cut (SyncDir).
func (f *File) Commit(path string) error {
	if err := f.Rename(path); err != nil {
		return err
	}
	return SyncDir(f.dir)
}

// Sync flushes the new file to disk, gives it its mode and closes it; no
// more can be written. Commit does it when it was not done; a caller
// that renames under a lock syncs first, outside it.
func (f *File) Sync() error {
	if f.done {
		return errAfter
	}
	if f.synced {
		return nil
	}
	f.synced = true
	err := f.f.Chmod(f.perm)
	if err == nil {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.Abort()
	}
	return err
}

// Rename syncs the new file (Sync) and renames it to path, which must be
// in the directory it was created in, replacing whatever was there. It
// does not flush the directory: a caller that renames under a lock calls
// SyncDir after releasing it. On an error the new file is removed and
// path is as it was.
func (f *File) Rename(path string) error {
	if f.done {
		return errAfter
	}
	if filepath.Dir(filepath.Clean(path)) != f.dir {
		f.Abort()
		return fmt.Errorf("atomicfile: %s is not in %s, where its temporary file is", path, f.dir)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	f.done = true
	if err := os.Rename(f.f.Name(), path); err != nil {
		os.Remove(f.f.Name())
		return err
	}
	return nil
}

var errAfter = errors.New("atomicfile: the file was already put in place or removed")

// Abort removes the new file. It does nothing after Commit, so it can be
// deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if !f.synced {
		f.f.Close()
	}
	os.Remove(f.f.Name())
}

// SyncDir flushes a directory's entries (a rename) to disk. A file
// system that cannot sync a directory is not an error: there is nothing
// more to do there.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
