package attention

// NoticeUnrecognised is the Inbox question a pane started by fan or
// start-agent gets when it has not reached its prompt 30 s after it
// started and is not on needs_input (the daemon's agent_launch.go).
const NoticeUnrecognised = "waiting at a screen tuios does not recognise: look at the pane and answer it"
