package tui

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The alert command: [notifications.agent] command runs under sh -c on
// each alert. What the alert is about reaches it only in the environment,
// never in the command string, so pane text cannot become shell syntax:
//
//	TUIOS_ALERT_SESSION    the pane's session
//	TUIOS_ALERT_WINDOW     the pane's name
//	TUIOS_ALERT_WINDOW_ID  the pane's id
//	TUIOS_ALERT_STATE      needs_input, errored, done, ...
//	TUIOS_ALERT_HARNESS    the agent's harness, when known
//	TUIOS_ALERT_MESSAGE    the agent's own message (one line, cleaned)
//	TUIOS_ALERT_TEXT       the alert line, as the dock shows it
//
// It runs in its own process group with no input and its output thrown
// away (the terminal belongs to the attached screen), and is killed after
// alertCommandLimit: an alert never waits on it.

// alertCommandLimit bounds one run of the alert command.
const alertCommandLimit = 10 * time.Second

// alertRanMsg reports how a run of the alert command ended.
type alertRanMsg struct{ err error }

// alertCommand is the command run for one pane's alert, nil when none is
// configured.
func (m *Model) alertCommand(a proto.AttachAgent, text string) tea.Cmd {
	command := m.opt.Alert.Command
	if command == "" {
		return nil
	}
	env := alertEnv(a, text)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), alertCommandLimit)
		defer cancel()
		return alertRanMsg{err: runAlertCommand(ctx, command, env)}
	}
}

// alertEnv is the alert's details as environment variables.
func alertEnv(a proto.AttachAgent, text string) []string {
	return []string{
		"TUIOS_ALERT_SESSION=" + clean(a.Session),
		"TUIOS_ALERT_WINDOW=" + clean(a.Name),
		"TUIOS_ALERT_WINDOW_ID=" + clean(a.Window),
		"TUIOS_ALERT_STATE=" + clean(a.State),
		"TUIOS_ALERT_HARNESS=" + clean(a.Harness),
		"TUIOS_ALERT_MESSAGE=" + clean(a.Message),
		"TUIOS_ALERT_TEXT=" + clean(text),
	}
}

// runAlertCommand runs command under sh -c with env added, until it ends
// or ctx does; then its whole process group is killed.
func runAlertCommand(ctx context.Context, command string, env []string) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run()
}
