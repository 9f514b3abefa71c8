package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// ReadPrivate reads a state file a program keeps for one user: nil and ""
// when there is none, and why it cannot be trusted when it is not uid's,
// not private (any group or other bit), not a regular file, or bigger
// than max bytes. A file refused here is for SetAside, never for reading
// anyway.
func ReadPrivate(path string, uid int, max int64) ([]byte, string) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err.Error()
	case !fi.Mode().IsRegular():
		return nil, "it is not a regular file"
	case fi.Mode().Perm()&0o077 != 0:
		return nil, fmt.Sprintf("its mode is %04o, not 0600", fi.Mode().Perm())
	case fi.Size() > max:
		return nil, fmt.Sprintf("it is %d bytes, over %d", fi.Size(), max)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return nil, fmt.Sprintf("it belongs to uid %d, not %d", st.Uid, uid)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, err.Error()
	}
	return buf.Bytes(), ""
}

// SetAside moves a file that was refused out of the way, to
// PATH.corrupt-STAMP (now in UTC), so it is kept for a person to look at
// and never overwritten. It returns the new name.
func SetAside(path string, now time.Time) (string, error) {
	aside := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	return aside, os.Rename(path, aside)
}
