//go:build unix

package transcript

import (
	"os"
	"syscall"
)

// inode is the file's inode number, so a file replaced under the same
// name, size and time is still read again.
func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}
