package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/internal/proto"
)

// ErrNested is Run's refusal inside a pane of the daemon: the daemon
// gives a nonce only to a terminal outside every pane.
var ErrNested = errors.New("sessions should be nested with care; this terminal is already a tuios pane")

// Run attaches the terminal to a session until the person detaches, the
// session ends or the daemon goes away. Detaching and a closed session
// print a one-line note on Stdout and return nil; a daemon that went
// away returns ErrDaemonGone, after the terminal is restored.
//
// While it runs, the process has one P (runtime.GOMAXPROCS(1)): the client
// is one event loop and the goroutines that feed it, and with a second P
// every hand-over between them (a key read, a stream line) also wakes an
// idle thread to look for work, a context switch per key for nothing.
func Run(ctx context.Context, opt Options) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if opt.Stdin == nil {
		opt.Stdin = os.Stdin
	}
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	width, height := 80, 24
	if f, ok := opt.Stdout.(*os.File); ok {
		if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
			width, height = w, h
		}
	}
	opt.keepAway = true
	m := NewModel(opt, nil, width, height)
	cols, rows := m.AreaSize()

	host := remoteHost(opt.Host)
	copt := opt
	copt.callLine = host == "" // key_direct.go: this daemon may pass a pane's input
	calls, err := dialTo(copt, host)
	if err != nil {
		return err
	}
	session := opt.Session
	if session == "" {
		var ls proto.SessionList
		if err := calls.Call("list-sessions", nil, &ls); err != nil {
			calls.Close()
			return err
		}
		if ls.Total == 0 {
			var made proto.SessionCreated
			if err := calls.Call("new-session", proto.NewSessionParams{Cols: cols, Rows: rows}, &made); err != nil {
				calls.Close()
				return err
			}
			session = made.Session
		}
	}
	st, nonce, name, quiet, err := attachStream(opt, host, session, cols, rows)
	if err != nil {
		calls.Close()
		var pe *proto.Error
		if errors.As(err, &pe) && pe.Code == "not_human" {
			return ErrNested
		}
		return err
	}
	c := &conns{opt: opt, calls: newCallLine(calls, quiet), stream: st, host: host, session: name, cols: cols, rows: rows}
	c.opt.noAutostart = true
	// key_direct.go: keys go over the socket only, to measure or rule
	// out the passed input (docs/performance.md).
	c.keys.off = os.Getenv("TUIOS_KEYS_OVER_SOCKET") != ""
	m.calls, m.nonce, m.session = c, nonce, name
	m.sentCols, m.sentRows = cols, rows

	t, err := openTerminal(opt, width, height)
	if err != nil {
		c.close()
		return err
	}
	// On every way out, a panic in Update included, the terminal is
	// given back before anything is printed.
	defer t.close()
	d := &driver{m: m, scr: t.scr}
	// The program is only the event loop: no renderer (screen draws),
	// no input or signals (terminal reads them), and an output that
	// discards what bubbletea would write itself.
	p := tea.NewProgram(d, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithoutRenderer(), tea.WithoutSignalHandler(), tea.WithoutCatchPanics(),
		tea.WithWindowSize(width, height), tea.WithFPS(1))
	// Even without a renderer, bubbletea flushes its output on a ticker
	// for the whole run (startRenderer). ReleaseTerminal is the one way
	// to stop it; with input and renderer off it releases nothing else.
	d.release = func() tea.Msg {
		p.ReleaseTerminal()
		return nil
	}
	if err := t.run(opt.Stdin, p.Send); err != nil {
		c.close()
		return err
	}
	c.start(p.Send)
	_, runErr := p.Run()
	m.saveAwayOnExit() // recap.go: a detach is away from the pane shown
	c.close()
	t.close()
	out := m.Outcome()
	if out == nil {
		if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) {
			return runErr
		}
		return ctx.Err()
	}
	if out.Err != nil {
		return out.Err
	}
	if out.Message != "" {
		fmt.Fprintln(opt.Stdout, out.Message)
	}
	return nil
}
