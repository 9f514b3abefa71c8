// Package pretend is a stand-in for a coding agent in a terminal, for tests
// and demos of agent tracking: it works (with OSC 9;4 progress and a
// braille spinner in its title, as Claude Code spins one), stops on a
// permission prompt drawn the way Claude Code draws it and waits for 1 or
// 2, then finishes its turn and rests at its prompt with "✳" in its title.
// A failed turn (-error) sets the progress bar's error state. Like a
// hookless harness, it is read only through what it prints: the tracker
// believes its progress once the detector has found it in the pane (its
// first look, every 2 s by default), so a turn shorter than that ends
// unread. Started by `go run`, it takes its terminal's foreground process
// group from go, which would otherwise lead it and hide the agent from a
// tracker (see takeForeground). examples/pretend-agent and
// `tuios pretend-agent` run it.
package pretend

import (
	"bufio"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// options are the pretend agent's flags.
type options struct {
	as, task, finish                       *string
	prompt, fail, silence, exit, deaf, alt *bool
	steps                                  *int
	step                                   *time.Duration
}

// define puts the pretend agent's flags on fs.
func define(fs *flag.FlagSet) options {
	return options{
		as:      fs.String("as", "claude-code", "the harness to be recognised as (TUIOS_AGENT); empty for none"),
		prompt:  fs.Bool("prompt", true, "stop on a permission prompt mid-turn; on unless -prompt=false"),
		fail:    fs.Bool("error", false, "end the turn with an error"),
		silence: fs.Bool("silence", false, "work, then go silent with the progress bar still set"),
		steps:   fs.Int("steps", 4, "work steps before and after the prompt"),
		step:    fs.Duration("step", 300*time.Millisecond, "time per work step"),
		task:    fs.String("task", "tidy the build directory", "what the turn works on"),
		exit:    fs.Bool("exit", false, "exit after the turn instead of waiting at the idle prompt"),
		finish:  fs.String("finish", "", "also report the end of the turn with OSC 7501: done (or empty for none)"),
		deaf:    fs.Bool("deaf", false, "take no prompt at the idle prompt: what is typed there changes nothing (q alone still quits)"),
		alt:     fs.Bool("alt-screen", false, "draw on the alternate screen, as a full-screen agent does: what scrolls off its top is gone (no history)"),
	}
}

// FlagSet is a set holding the pretend agent's flags, for a help text to
// list them (Main parses its own).
func FlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("pretend-agent", flag.ContinueOnError)
	define(fs)
	return fs
}

// Examples are command lines that show the flags.
const Examples = `pretend-agent                  # one turn with a permission prompt, then the idle prompt
pretend-agent -prompt=false    # a turn with no prompt
pretend-agent -error           # the turn fails
pretend-agent -silence         # works, then goes silent
pretend-agent -finish done     # also reports done with OSC 7501
pretend-agent -alt-screen      # on the alternate screen, as a full-screen agent draws
pretend-agent -steps 12 -step 250ms -exit   # a longer turn, then exit`

// Main runs the pretend agent with command-line args (without the program
// name) and returns its exit code. -h prints the flags and examples on
// stdout and returns 0.
func Main(args []string) int {
	fs := flag.NewFlagSet("pretend-agent", flag.ContinueOnError)
	o := define(fs)
	fs.Usage = func() {} // the flag package has printed the error; help is below
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stdout, "Usage: pretend-agent [flags]\n\nA stand-in coding agent, for tests and demos. Flags (one dash or two):\n")
			fs.SetOutput(os.Stdout)
			fs.PrintDefaults()
			fmt.Fprintf(os.Stdout, "\nExamples:\n  %s\n", strings.ReplaceAll(Examples, "\n", "\n  "))
			return 0
		}
		fmt.Fprintln(os.Stderr, "pretend-agent -h lists the flags")
		return 2
	}
	as, prompt, fail, silence, steps, step := o.as, o.prompt, o.fail, o.silence, o.steps, o.step
	task, exit, finish, deaf, alt := o.task, o.exit, o.finish, o.deaf, o.alt
	if *as != "" && os.Getenv("TUIOS_AGENT") != *as {
		reexec(*as)
	}
	// Before raw mode: a process outside the foreground may not set the
	// terminal's modes.
	if giveBack := takeForeground(); giveBack != nil {
		defer giveBack()
	}
	in := bufio.NewReader(os.Stdin)
	raw := rawMode()
	defer raw.restore()
	sc := &screen{}
	defer onResize(sc.redraw)()
	if *alt {
		sc.control("\x1b[?1049h\x1b[H")
		defer sc.control("\x1b[?1049l")
	}

	sc.control("\x1b]2;✳ pretend-agent\x07")
	sc.print("\x1b[1mpretend-agent\x1b[0m — a stand-in for a coding agent\r\n\r\n")
	sc.print("> " + *task + "\r\n\r\n")
	sc.progress(3)
	sc.work(*steps, *step, "Reading the tree")
	if *silence {
		sc.print("● Waiting on something that never answers…\r\n")
		for { // silent until the input ends
			if _, err := in.ReadByte(); err != nil {
				return 0
			}
		}
	}
	if *prompt {
		answer := sc.permission(in, "rm -rf build/", "Clean the build directory")
		if answer != '1' {
			sc.print("\x1b[33m✗ Denied. Stopping here.\x1b[0m\r\n")
			sc.endTurn(in, *exit, *deaf, "Stopped: the person said no.", *finish)
			return 0
		}
		sc.print("\x1b[32m✓ Allowed\x1b[0m rm -rf build/\r\n")
		sc.progress(3)
		sc.work(*steps, *step, "Rebuilding")
	}
	if *fail {
		sc.progress(2)
		sc.print("\x1b[31mError: the build failed (exit status 2)\x1b[0m\r\n")
		sc.endTurn(in, *exit, *deaf, "", "")
		return 1
	}
	sc.endTurn(in, *exit, *deaf, "Done: "+*task+".", *finish)
	return 0
}

// progress writes OSC 9;4 (3 indeterminate, 0 clear, 2 error).
func (sc *screen) progress(state int) { sc.control(fmt.Sprintf("\x1b]9;4;%d\x07", state)) }

// work draws n steps of work. Like Claude Code, whose title is a braille
// spinner while a turn runs and "✳ Claude Code" at rest (and on a
// prompt), it turns a spinner in its title on every step.
func (sc *screen) work(n int, d time.Duration, what string) {
	spin := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴"}
	for i := 0; i < n; i++ {
		s := spin[i%len(spin)]
		sc.control(fmt.Sprintf("\x1b]2;%s pretend-agent\x07", s))
		sc.status(fmt.Sprintf("%s %s (%d/%d)", s, what, i+1, n))
		time.Sleep(d)
	}
	sc.status("")
	sc.print(fmt.Sprintf("● %s\r\n", what))
}

// permission paints a prompt shaped like Claude Code's and waits for a
// digit. Painting it is the last output until the answer: the silence a
// tracker has to see through.
func (sc *screen) permission(in *bufio.Reader, cmd, why string) byte {
	sc.control("\x1b]2;✳ pretend-agent\x07")
	sc.showBox([]string{
		"Bash command",
		"",
		"  " + cmd,
		"  " + why,
		"",
		"Do you want to proceed?",
		"❯ 1. Yes",
		"  2. No, and tell the agent what to do differently (esc)",
	})
	for {
		b, err := in.ReadByte()
		if err != nil {
			return 0
		}
		if b == '1' || b == '2' || b == 0x1b {
			sc.hideBox() // paint over the prompt: it leaves the screen
			return b
		}
	}
}

// endTurn ends the turn and waits at the idle prompt (unless exit).
func (sc *screen) endTurn(in *bufio.Reader, exit, deaf bool, summary, report string) {
	if summary != "" {
		sc.progress(0)
		sc.print("✳ " + summary + "\r\n")
	}
	if report == "done" {
		sc.control("\x1b]7501;state=done:app=pretend-agent:msg=" + base64.StdEncoding.EncodeToString([]byte(summary)) + "\x07")
	}
	sc.control("\x1b]2;✳ pretend-agent\x07")
	if exit {
		return
	}
	sc.print("\r\n> ")
	sc.prompts(in, deaf)
}

// prompts is the idle prompt: a line typed or pasted is a new prompt,
// echoed and answered with a short turn (working, then idle again), the
// way an agent takes a message queued for it; "q" alone, ctrl-d or the
// end of the input quits.
func (sc *screen) prompts(in *bufio.Reader, deaf bool) {
	var line []byte
	for {
		b, err := in.ReadByte()
		switch {
		case err != nil || b == 4:
			sc.print("\r\n")
			return
		case b == '\r' || b == '\n':
			text := strings.TrimSpace(string(line))
			line = line[:0]
			switch text {
			case "q":
				sc.print("\r\n")
				return
			case "":
				sc.print("\r\n> ")
				continue
			}
			if deaf {
				continue
			}
			sc.print("\r\n")
			sc.progress(3)
			sc.work(2, 100*time.Millisecond, "Working on the prompt")
			sc.progress(0)
			sc.control("\x1b]2;✳ pretend-agent\x07")
			sc.print(fmt.Sprintf("✳ Done: read %d bytes of prompt.\r\n\r\n> ", len(text)))
		case b == 0x7f || b == 8:
			if len(line) > 0 {
				line = line[:len(line)-1]
				sc.print("\b \b")
			}
		case b == 0x1b:
			skipPasteMark(in) // bracketed paste's ESC [ 200 ~ and ESC [ 201 ~
		case b >= 0x20:
			line = append(line, b)
			if !deaf {
				sc.print(string(b))
			}
		}
	}
}

// skipPasteMark reads the rest of an escape sequence after its ESC.
func skipPasteMark(in *bufio.Reader) {
	if b, err := in.ReadByte(); err != nil || b != '[' {
		return
	}
	for {
		b, err := in.ReadByte()
		if err != nil || b >= 0x40 && b <= 0x7e {
			return
		}
	}
}

func reexec(as string) {
	self, err := os.Executable()
	if err != nil {
		return
	}
	env := append(os.Environ(), "TUIOS_AGENT="+as)
	syscall.Exec(self, os.Args, env)
}
