package integration

// Code is a stable error code.
type Code string

// Error codes.
const (
	CodeUnknownHarness    Code = "unknown_harness"     // no harness has this id
	CodeNoIntegration     Code = "no_integration"      // the harness has no integration (Reason says why)
	CodeNoConfigDir       Code = "no_config_dir"       // the harness has not run on this machine
	CodeCannotRead        Code = "cannot_read"         // the settings file cannot be read or parsed
	CodeCannotWrite       Code = "cannot_write"        // the settings file cannot be written
	CodeBrokenLink        Code = "broken_link"         // the settings file is a symlink to nothing
	CodeNotOurs           Code = "not_ours"            // a file at a path tuios owns lacks tuios's marker
	CodeChangedDuringEdit Code = "changed_during_edit" // the harness saved the file twice during the edit
	CodeStatusLineTaken   Code = "status_line_taken"   // --then names another command than the status line already there
)

// Error is a refused install, uninstall or status read.
type Error struct {
	code    Code
	Harness string
	Path    string
	Detail  string
}

func (e *Error) Error() string {
	msg := string(e.code)
	switch e.code {
	case CodeUnknownHarness:
		msg = "no harness is named " + e.Harness
	case CodeNoIntegration:
		msg = "tuios has no integration for " + e.Harness
	case CodeNoConfigDir:
		msg = e.Harness + " has no config directory at " + e.Path
	case CodeCannotRead:
		msg = "cannot read " + e.Path
	case CodeCannotWrite:
		msg = "cannot write " + e.Path
	case CodeBrokenLink:
		msg = e.Path + " is a symlink to a file that does not exist"
	case CodeNotOurs:
		msg = e.Path + " exists and was not written by tuios"
	case CodeChangedDuringEdit:
		msg = e.Path + " changed twice while tuios edited it; nothing was written"
	case CodeStatusLineTaken:
		msg = e.Path + " already has a status line of your own; --then would drop it, so nothing was written"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Code returns the error's stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next.
func (e *Error) Hint() string {
	switch e.code {
	case CodeUnknownHarness:
		return "tuios integration status lists the harnesses"
	case CodeNoConfigDir:
		return "run the harness once first, then install again"
	case CodeCannotRead:
		return "fix the file (tuios never rewrites a file it cannot parse), then try again"
	case CodeBrokenLink:
		return "point the link at a file, or remove it"
	case CodeNotOurs:
		return "move the file away if tuios may own that path"
	case CodeChangedDuringEdit:
		return "try again"
	case CodeStatusLineTaken:
		return "leave out --then and tuios chains to the status line you have (uninstall gives it back), or change statusLine in the file yourself first"
	}
	return ""
}
