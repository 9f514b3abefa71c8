package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ReadPrivate reads a file a program keeps for itself (a state file it
// wrote with WriteFile, mode 0600). It returns nil and "" when there is
// none, and why the file cannot be trusted when it is not uid's, not
// private (any group or other bit), not regular or over max bytes.
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
