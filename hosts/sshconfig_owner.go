//go:build unix

package hosts

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkConfigOwner refuses an ssh config file that another user could
// have written, as ssh does: it must be owned by this user or root and
// not writable by group or others. Otherwise whoever could write it would
// choose where links go.
func checkConfigOwner(path string, st fs.FileInfo) error {
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("bad permissions on %s (%v): it must not be writable by group or others", path, st.Mode().Perm())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		if uid := uint32(os.Getuid()); sys.Uid != uid && sys.Uid != 0 {
			return fmt.Errorf("bad owner of %s: it must be yours or root's", path)
		}
	}
	return nil
}
