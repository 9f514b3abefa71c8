package pty_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// Start an interactive shell on a PTY and read its prompt through a vt
// screen, the way a pane does.
func Example() {
	argv := []string{"bash", "--norc", "--noprofile", "-i"}
	if _, err := exec.LookPath("bash"); err != nil {
		argv = []string{"sh", "-i"}
	}
	p, err := pty.Start(pty.Options{
		Argv: argv,
		Env:  []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=xterm-256color", "HOME=/tmp", "PS1=$ ", "ENV=", "HISTFILE=/dev/null"},
		Cols: 80, Rows: 24,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	// Replies a terminal must send (cursor position, device attributes)
	// go back to the program.
	screen := vt.New(vt.Options{Cols: 80, Rows: 24, Reply: p})
	p.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 4096)
	for {
		n, err := p.Read(buf)
		screen.Write(buf[:n])
		if tail := screen.Tail(1); len(tail) == 1 && tail[0] == "$" {
			break
		}
		if err != nil {
			fmt.Println("no prompt:", err)
			return
		}
	}
	fmt.Printf("%q\n", screen.Tail(1))
	// Output: ["$"]
}

// Wait reports how the process ended.
func ExampleProcess_Wait() {
	p, err := pty.Start(pty.Options{Argv: []string{"sh", "-c", "exit 3"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	st, err := p.Wait()
	fmt.Println(st, err)
	// Output: exit status 3 <nil>
}

// Errors carry a stable code.
func ExampleError() {
	_, err := pty.Start(pty.Options{Argv: []string{"no-such-command-xyz"}})
	if e, ok := err.(*pty.Error); ok {
		fmt.Println(e.Code())
	}
	// Output: command_not_found
}

// Input keeps a caller from blocking on a program that does not read: a
// screen's replies to terminal queries go through it, and typed text waits
// for room with a deadline.
func ExampleInput() {
	p, err := pty.Start(pty.Options{Argv: []string{"sh", "-c", "stty raw -echo; echo ready; head -c 5; echo"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	r := bufio.NewReader(p)
	r.ReadString('\n') // "ready": the terminal no longer echoes
	in := pty.NewInput(p, pty.InputOptions{Max: 1 << 20})
	defer in.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := in.Send(ctx, []byte("hello"))
	fmt.Println(n, err)
	out, _ := io.ReadAll(r)
	fmt.Printf("%q\n", strings.TrimSpace(string(out)))
	// Output:
	// 5 <nil>
	// "hello"
}
