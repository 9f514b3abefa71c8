package daemon

// noticeUnrecognised is the Inbox question a pane started by fan or
// start-agent gets when it has not reached its prompt 30 s after it
// started and is not on needs_input (start_agent.go).
const noticeUnrecognised = "waiting at a screen tuios does not recognise: look at the pane and answer it"
