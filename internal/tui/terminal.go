package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/internal/pace"
)

// Frames are paced by a token bucket (internal/pace): a change after a
// quiet spell, and a short burst of them, are drawn at once (a typed key
// echoes without waiting); a flood of updates is drawn once per
// frameDelay; nothing is armed while nothing changes.
const (
	frameDelay = 8 * time.Millisecond
	frameBurst = 4
	echoWindow = 50 * time.Millisecond
)

// frameMsg draws the pending frame.
type frameMsg struct{}

// signalMsg is a SIGINT, SIGTERM or SIGHUP: the client detaches.
type signalMsg struct{}

// driver is the program's model: it wraps the Model and draws its View
// on the screen, once per burst of changes. bubbletea is the event loop
// only: its renderer is off (see terminal).
type driver struct {
	m       *Model
	scr     *screen
	release tea.Cmd
	pending bool
	pacer   *pace.Limiter
	typed   time.Time // the person's last key or paste
}

func (d *driver) Init() tea.Cmd {
	return tea.Batch(d.release, d.m.Init(), d.frame())
}

// View is empty: bubbletea calls it after every message, and the frame
// is drawn by frameMsg instead.
func (d *driver) View() tea.View { return tea.View{} }

func (d *driver) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		d.pending = false
		return d, d.frame()
	case tea.RawMsg:
		// bubbletea queued it too, for an output that discards it.
		d.scr.write(fmt.Sprint(msg.Msg))
		return d, nil
	case tea.ModeReportMsg:
		d.scr.modeReport(msg)
		return d, nil
	case nil, tea.ColorProfileMsg, tea.EnvMsg, tea.KeyboardEnhancementsMsg:
		return d, nil
	case signalMsg:
		return d, d.m.detach()
	case tea.WindowSizeMsg:
		d.scr.resize(msg.Width, msg.Height)
	case tea.KeyPressMsg, tea.PasteMsg:
		d.typed = time.Now()
	}
	_, cmd := d.m.Update(msg)
	return d, tea.Batch(cmd, d.frame())
}

func (d *driver) draw() { d.scr.draw(d.m.nextFrame(), d.m.cursor(), d.m.mouseMode()) }

// frame draws now when the pacer allows, else arms the one-shot timer of
// the next frame, unless it is armed.
func (d *driver) frame() tea.Cmd {
	// What follows a key closely is its echo: drawn at once, whatever
	// the pacer says (a person typing cannot flood), even while a paced
	// frame is armed (it draws what is left when it comes).
	echo := time.Since(d.typed) < echoWindow
	if d.pending && !echo {
		return nil
	}
	if d.pacer == nil {
		d.pacer = pace.New(frameDelay, frameBurst)
	}
	wait := d.pacer.Wait(time.Now())
	if wait <= 0 || echo {
		d.draw()
		return nil
	}
	if d.pending {
		return nil
	}
	d.pending = true
	return tea.Tick(wait, func(time.Time) tea.Msg { return frameMsg{} })
}

// terminal is the outer terminal while attached: raw mode, the screen,
// the input reader and the signals. bubbletea would do the first three
// itself, but only with its renderer, whose ticker never stops.
type terminal struct {
	in     *os.File // nil when stdin is not a terminal
	state  *term.State
	scr    *screen
	cancel context.CancelFunc
	reader interface{ Cancel() bool }
	out    ttyFile  // the terminal reopened for the frames (reopenTTY), or nil
	size   *os.File // where the terminal's size is read, or nil
	done   chan struct{}
	sigs   chan os.Signal
	once   sync.Once
}

// openTerminal puts stdin in raw mode and takes the screen. Every exit
// path must call close: it is idempotent.
func openTerminal(opt Options, width, height int) (*terminal, error) {
	t := &terminal{scr: newScreen(opt.Stdout, os.Environ(), width, height), done: make(chan struct{})}
	if f, ok := opt.Stdout.(*os.File); ok {
		t.size = f
		if o := reopenTTY(f, os.O_WRONLY); o != nil {
			t.out, t.scr.out = o, o
		}
	}
	if f, ok := opt.Stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		st, err := term.MakeRaw(f.Fd())
		if err != nil {
			return nil, fmt.Errorf("raw mode: %w", err)
		}
		t.in, t.state = f, st
	}
	t.scr.enter(askSync(os.Getenv))
	return t, nil
}

// run starts reading input and signals, sending them to send. Keys,
// mouse and paste are decoded by ultraviolet's reader, bubbletea's own
// decoder, and bubbletea turns its events into tea messages.
func (t *terminal) run(in io.Reader, send func(tea.Msg)) error {
	t.sigs = make(chan os.Signal, 4)
	signal.Notify(t.sigs, syscall.SIGWINCH, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go t.signals(send)

	var src io.Reader
	if f, ok := in.(*os.File); ok && t.in == f {
		if p := reopenTTY(f, os.O_RDONLY); p != nil {
			t.reader, src = closeReader{p}, p
		}
	}
	if src == nil {
		cr, err := uv.NewCancelReader(in)
		if err != nil {
			close(t.done)
			return fmt.Errorf("reading the terminal: %w", err)
		}
		t.reader, src = cr, cr
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	events := make(chan uv.Event)
	rd := uv.NewTerminalReader(src, os.Getenv("TERM"))
	go func() {
		defer close(events)
		rd.StreamEvents(ctx, events)
	}()
	go func() {
		defer close(t.done)
		for ev := range events {
			send(ev)
		}
	}()
	return nil
}

// ttyFile is the terminal opened afresh (reopenTTY): its own reads and
// writes, and Close ends a pending one.
type ttyFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// closeReader cancels a pending read on a pollable file by closing it.
type closeReader struct{ f io.Closer }

func (c closeReader) Cancel() bool { return c.f.Close() == nil }

func (t *terminal) signals(send func(tea.Msg)) {
	for sig := range t.sigs {
		if sig != syscall.SIGWINCH {
			send(signalMsg{})
			continue
		}
		if f := t.size; f != nil {
			if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
				send(tea.WindowSizeMsg{Width: w, Height: h})
			}
		}
	}
}

// close stops the input and the signals, leaves the screen and restores
// the terminal's mode.
func (t *terminal) close() {
	t.once.Do(func() {
		if t.sigs != nil {
			signal.Stop(t.sigs)
			close(t.sigs)
		}
		if t.reader != nil {
			t.reader.Cancel()
			t.cancel()
			// A reader that cannot be cancelled holds no one up for long.
			select {
			case <-t.done:
			case <-time.After(500 * time.Millisecond):
			}
		}
		t.scr.leave()
		if t.out != nil {
			t.out.Close()
		}
		if t.state != nil {
			term.Restore(t.in.Fd(), t.state)
		}
	})
}
