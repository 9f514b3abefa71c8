package vt

// EventKind says which field of an Event is meaningful.
type EventKind uint8

// Event kinds.
const (
	// EventBell: BEL outside any string sequence.
	EventBell EventKind = iota + 1
	// EventTitleChanged: OSC 0 or OSC 2 set the title; Text holds it.
	EventTitleChanged
	// EventWorkingDirChanged: OSC 7; Text holds the path.
	EventWorkingDirChanged
	// EventProgress: OSC 9;4; Progress holds the parsed report (check
	// Progress.Valid: a malformed 4;… report arrives with Valid=false so
	// the owner can see it was ignored).
	EventProgress
	// EventProgramStatus: OSC 7501 report; ProgramStatus holds it.
	EventProgramStatus
	// EventNotification: OSC 9 (not 9;4), OSC 777;notify, OSC 99.
	EventNotification
	// EventReset: RIS (ESC c) reset the terminal.
	EventReset
	// EventPromptMark: an OSC 133 shell-integration mark; Text is its
	// letter ("A" prompt start, "B" command start, "C" output start, "D"
	// command finished, with any ";exitcode" kept: "D;1"). OSC 7501 records
	// of live work end at a new prompt (package detect ends them).
	EventPromptMark
)

func (k EventKind) String() string {
	switch k {
	case EventBell:
		return "bell"
	case EventTitleChanged:
		return "title_changed"
	case EventWorkingDirChanged:
		return "working_dir_changed"
	case EventProgress:
		return "progress"
	case EventProgramStatus:
		return "program_status"
	case EventNotification:
		return "notification"
	case EventReset:
		return "reset"
	case EventPromptMark:
		return "prompt_mark"
	}
	return "unknown"
}

// Event is one typed event from the byte stream. It is a plain struct, not an
// interface, so emitting one never allocates; Kind says which field is set.
type Event struct {
	Kind          EventKind
	Text          string // EventTitleChanged, EventWorkingDirChanged, EventPromptMark
	Progress      Progress
	ProgramStatus ProgramStatus
	Notification  Notification
	Mark          PromptMark // EventPromptMark (osc133.go)
}

// Notification is a desktop notification a program asked for.
type Notification struct {
	// Source is the OSC number that carried it: 9, 777 or 99.
	Source int
	// Title and Body are each capped at MaxNotificationField bytes (cut on
	// a UTF-8 boundary). OSC 9 carries only a body.
	Title, Body string
}

// MaxNotificationField caps a notification's title and body, in bytes:
// they are display text, and a pane must not fill memory through them.
const MaxNotificationField = 512
