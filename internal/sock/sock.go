// Package sock finds the tuios control socket and keeps its directory
// private: mode 0700, owned by the user, never a symlink.
package sock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Path is where the daemon listens: $TUIOS_SOCKET, else
// $XDG_RUNTIME_DIR/tuios/tuios.sock, else /tmp/tuios-<uid>/tuios.sock.
func Path(getenv func(string) string) string {
	if p := getenv("TUIOS_SOCKET"); p != "" {
		return p
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "tuios", "tuios.sock")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("tuios-%d", os.Getuid()), "tuios.sock")
}

// Error says why the socket's directory cannot be used.
type Error struct {
	Reason string // dir_symlink, dir_foreign_owner, dir_not_private, dir_create
	Dir    string
	Err    error
}

// Code is the stable error code: the Reason.
func (e *Error) Code() string { return e.Reason }

func (e *Error) Error() string {
	switch e.Reason {
	case "dir_symlink":
		return fmt.Sprintf("the socket directory %s is a symlink; refusing to use it", e.Dir)
	case "dir_foreign_owner":
		return fmt.Sprintf("the socket directory %s belongs to another user; refusing to use it", e.Dir)
	case "dir_not_private":
		return fmt.Sprintf("the socket directory %s is open to other users (it must be mode 0700)", e.Dir)
	}
	return fmt.Sprintf("cannot create the socket directory %s: %v", e.Dir, e.Err)
}

// Hint says what to do about it.
func (e *Error) Hint() string {
	return fmt.Sprintf("remove %s (or point TUIOS_SOCKET somewhere private) and try again", e.Dir)
}

// EnsureDir creates the socket's directory with mode 0700 if it is missing
// and checks an existing one: a symlink, another user's directory, or one
// others can enter is refused.
func EnsureDir(socket string) error {
	dir := filepath.Dir(socket)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return &Error{Reason: "dir_create", Dir: dir, Err: err}
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return &Error{Reason: "dir_create", Dir: dir, Err: err}
	}
	return CheckDir(dir)
}

// CheckDir checks an existing socket directory.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return &Error{Reason: "dir_create", Dir: dir, Err: err}
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return &Error{Reason: "dir_symlink", Dir: dir}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &Error{Reason: "dir_foreign_owner", Dir: dir}
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return &Error{Reason: "dir_not_private", Dir: dir}
	}
	return nil
}
