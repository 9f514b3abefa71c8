package transfers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// errStopped ends a copy when the daemon stops.
var errStopped = errors.New("the daemon stopped")

// copier runs one copy.
type copier struct {
	t     *copies
	x     *transfer
	p     plan
	stop  <-chan struct{}
	begin time.Time
	// paused is how long the copy stood paused, left out of the rate.
	paused time.Duration
}

// entry is one thing a copy makes at the destination.
type entry struct {
	rel  string // relative to the source root ("" for the root)
	mode fs.FileMode
	size int64
}

func (c *copier) copy() error {
	entries, total, err := c.walk()
	if err != nil {
		return err
	}
	c.t.mu.Lock()
	c.x.info.Total, c.x.info.Files = total, 0
	c.t.mu.Unlock()
	for _, e := range entries {
		dst := filepath.Join(c.p.dst, e.rel)
		src := filepath.Join(c.p.src, e.rel)
		switch {
		case e.mode.IsDir():
			if fi, err := os.Lstat(dst); err == nil {
				if !fi.IsDir() { // a symlink here would carry the copy out of its folder
					return fmt.Errorf("%s exists and is not a folder", dst)
				}
			} else if err := os.Mkdir(dst, 0o755); err != nil {
				return err
			}
		case e.mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			os.Remove(dst)
			if err := os.Symlink(target, dst); err != nil {
				return err
			}
		default:
			if err := c.file(src, dst, e.mode); err != nil {
				return err
			}
			c.t.mu.Lock()
			c.x.info.Files++
			c.t.mu.Unlock()
		}
	}
	return nil
}

// walk lists what to copy: the source file, or with recursive its tree
// (symlinks inside are copied as links, never followed; devices, fifos and
// sockets are left out). A daemon that stops ends a long walk too.
func (c *copier) walk() ([]entry, int64, error) {
	fi, err := os.Stat(c.p.src)
	if err != nil {
		return nil, 0, err
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return nil, 0, fmt.Errorf("%s is not a regular file", c.p.src)
		}
		return []entry{{mode: fi.Mode(), size: fi.Size()}}, fi.Size(), nil
	}
	var out []entry
	var total int64
	err = filepath.WalkDir(c.p.src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		select {
		case <-c.stop:
			return errStopped
		default:
		}
		if len(out) >= maxEntries {
			return fmt.Errorf("%s holds more than %d files and folders, more than one copy takes", c.p.src, maxEntries)
		}
		rel, _ := filepath.Rel(c.p.src, path)
		if rel == "." {
			rel = ""
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		m := info.Mode()
		if m.IsDir() || m.IsRegular() || m&fs.ModeSymlink != 0 {
			out = append(out, entry{rel: rel, mode: m, size: info.Size()})
			if m.IsRegular() {
				total += info.Size()
			}
		}
		return nil
	})
	return out, total, err
}

// file copies one file through a temporary file beside dst, renamed over
// it once whole: a failed or cancelled copy leaves no half file.
func (c *copier) file(src, dst string, mode fs.FileMode) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := c.stillWithin(in, src); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tuios-cp-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := c.stillWithin(tmp, dst); err != nil {
		return err
	}
	chunk := c.chunk()
	for {
		if err := c.gate(); err != nil {
			return err
		}
		// io.CopyN between two files lets the kernel copy
		// (copy_file_range on Linux), a chunk at a time.
		n, err := io.CopyN(tmp, in, chunk)
		c.x.done.Add(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if err := tmp.Chmod(mode.Perm()); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return err
	}
	ok = true
	return nil
}

// stillWithin checks an open file's real path against the folder the
// copy must stay in, so a folder swapped for a symlink after the check
// cannot carry it out. Where /proc cannot name the file (not Linux) the
// check before the copy is what holds.
func (c *copier) stillWithin(f *os.File, name string) error {
	if c.p.within == "" {
		return nil
	}
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil
	}
	if !inside(real, c.p.within) {
		return fmt.Errorf("%s resolves to %s, outside %s", name, real, c.p.within)
	}
	return nil
}

// chunk is what is copied between two looks at the state: a quarter
// second's worth under a low bwlimit, so the rate is smooth.
func (c *copier) chunk() int64 {
	if c.p.bwlimit > 0 && c.p.bwlimit < chunkSize*4 {
		return max(c.p.bwlimit/4, 512)
	}
	return chunkSize
}

// gate runs between chunks: it stops a cancelled copy, holds a paused
// one, and holds a throttled one until its rate allows the next chunk.
func (c *copier) gate() error {
	for {
		c.t.mu.Lock()
		state := c.x.info.State
		c.t.mu.Unlock()
		var wait <-chan time.Time
		switch state {
		case StateCancelled:
			return errCancelled
		case StatePaused:
			// wait for a wake
		default:
			if c.p.bwlimit <= 0 {
				return nil
			}
			due := time.Duration(float64(c.x.done.Load()) / float64(c.p.bwlimit) * float64(time.Second))
			ahead := due - (time.Since(c.begin) - c.paused)
			if ahead <= 0 {
				return nil
			}
			tm := time.NewTimer(ahead)
			defer tm.Stop()
			wait = tm.C
		}
		at := time.Now()
		select {
		case <-c.x.wake:
			if state == StatePaused {
				c.paused += time.Since(at)
			}
		case <-wait:
			return nil
		case <-c.stop:
			return errStopped
		}
	}
}

// inside reports whether path is folder or under it (both clean and
// absolute).
func inside(path, folder string) bool {
	if folder == "/" {
		return filepath.IsAbs(path)
	}
	return path == folder || len(path) > len(folder) && path[:len(folder)] == folder && path[len(folder)] == filepath.Separator
}
