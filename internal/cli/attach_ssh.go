package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/tuios/tuios/internal/config"
)

// attach --ssh: the old way to reach a host, for a far tuios too old to
// serve this client. The system ssh runs the tuios client there, nested
// in this terminal; this tuios only builds the command line.

// sshAttachArgv is the ssh command line that attaches session on host row
// h: ssh -t, the row's ssh options, "--", the addr, and the far command
// (the row's tuios, or tuios on the far PATH) with the session quoted for
// the far login shell. An addr or command starting with '-' is refused:
// ssh would read it as an option.
func sshAttachArgv(name string, h config.Host, session string) ([]string, error) {
	row := hostOf(name, h)
	if err := row.Check(); err != nil {
		return nil, err
	}
	if strings.HasPrefix(h.Addr, "-") { // Check says so too; this line is the one ssh would read
		return nil, usageError("tuios hosts add "+name+" ADDR", "host %s: addr %q starts with '-'", name, escapeControls(h.Addr))
	}
	if hasControlRune(session) {
		return nil, usageError("", "the session name has control characters")
	}
	argv := []string{"ssh", "-t"}
	for _, o := range h.SSHOptions {
		// "-p 2222" in one item is two words for ssh, as for the link.
		if f, v, ok := strings.Cut(o, " "); ok && strings.HasPrefix(o, "-") {
			argv = append(argv, f, strings.TrimSpace(v))
			continue
		}
		argv = append(argv, o)
	}
	far := h.Command
	if far == "" {
		far = "tuios"
	}
	far += " attach"
	if session != "" {
		far += " -t " + shellQuote(session) // risk.go: the far login shell reads it
	}
	return append(argv, "--", h.Addr, far), nil
}

func hasControlRune(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// attachSSH runs ssh -t HOST tuios attach SESSION in this terminal and
// exits with its status.
func attachSSH(ctx *Context, host, session string) error {
	f, _, err := loadHosts()
	if err != nil {
		return err
	}
	row, ok := f.Hosts[host]
	if !ok || host == "*" {
		return unknownHost(host, f)
	}
	argv, err := sshAttachArgv(host, row, session)
	if err != nil {
		return err
	}
	bin, err := exec.LookPath("ssh")
	if err != nil {
		return &Error{Code: "host_unreachable", Host: host, Message: "no ssh on PATH: --ssh runs the system ssh",
			Hint: "install openssh-client, or attach without --ssh (through the link)"}
	}
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ctx.Stdin, ctx.Stdout, ctx.Stderr
	if cmd.Stdin == nil {
		cmd.Stdin = os.Stdin
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &Error{Message: fmt.Sprintf("ssh to host %s exited with status %d", host, ee.ExitCode()), Host: host, Exit: max(ee.ExitCode(), 1)}
	}
	if err != nil {
		return &Error{Code: "host_unreachable", Host: host, Message: fmt.Sprintf("running ssh: %v", err)}
	}
	return nil
}
