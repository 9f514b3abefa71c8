package mux

import (
	"errors"

	"github.com/tuios/tuios/pty"
)

// startHint is what to do next when a window's process could not start,
// in the words of someone running tuios: the pty package's own hints name
// its Options fields, which a CLI or protocol caller never sees.
func startHint(err error) string {
	var pe *pty.Error
	if !errors.As(err, &pe) {
		return ""
	}
	switch pe.Code() {
	case pty.CodeCommandNotFound:
		return "check the command name and PATH (the program is the first word of the argv)"
	case pty.CodeCwdMissing:
		return "the directory does not exist: create it or give --cwd an existing one"
	case pty.CodePermissionDenied:
		return "make the file executable (chmod +x) or run it through its interpreter"
	case pty.CodeInvalidArgument:
		return "give a program to run (or none for the shell) and a window size between 1 and 65535"
	}
	return pe.Hint()
}
