package pretend

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// screen is what the pretend agent has printed, so that it can draw it
// again when its terminal changes size, as an agent's TUI does: Claude
// Code, like every Ink program, clears and redraws on SIGWINCH, and
// sizes its permission box to the terminal's width. Without that a box
// drawn 64 columns wide in a narrower tile is wrapped into a mess.
//
// Writes from the program and from the resize handler go through mu.
type screen struct {
	mu sync.Mutex
	// log is the text printed so far, without control sequences (titles,
	// progress) and without the status line: replaying it redraws the
	// transcript without reporting anything a second time. Bounded.
	log []byte
	// line is the status line being drawn (a spinner), "" for none.
	line string
	// box is the permission prompt's text while it is shown, and rows
	// how many rows it took when last drawn.
	box  []string
	rows int
}

// maxLog bounds the transcript kept for a redraw.
const maxLog = 64 << 10

// print writes text and keeps it for a redraw.
func (sc *screen) print(text string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.log = append(sc.log, text...)
	if n := len(sc.log); n > maxLog {
		sc.log = append(sc.log[:0], sc.log[n-maxLog:]...)
	}
	os.Stdout.WriteString(text)
}

// control writes a sequence that is not text (a title, a progress report,
// a screen switch); a redraw does not send it again.
func (sc *screen) control(seq string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	os.Stdout.WriteString(seq)
}

// status draws the one-line status (a spinner step) over the last one.
func (sc *screen) status(text string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.line = text
	os.Stdout.WriteString("\r\x1b[2K" + text)
}

// showBox draws the permission prompt, as wide as the terminal allows.
func (sc *screen) showBox(lines []string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.box = lines
	sc.drawBox()
}

// hideBox paints over the prompt: it leaves the screen.
func (sc *screen) hideBox() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.box == nil {
		return
	}
	fmt.Fprintf(os.Stdout, "\x1b[%dA\x1b[J", sc.rows)
	sc.box, sc.rows = nil, 0
}

// redraw is the resize handler: the transcript again at the new width,
// then the status line and the prompt, sized to it.
func (sc *screen) redraw() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	os.Stdout.WriteString("\x1b[H\x1b[2J")
	os.Stdout.Write(sc.log)
	if sc.line != "" {
		os.Stdout.WriteString("\r\x1b[2K" + sc.line)
	}
	if sc.box != nil {
		sc.drawBox()
	}
}

// drawBox draws sc.box framed, at most 64 columns and never wider than
// the terminal, each line wrapped inside the frame. Called with mu held.
func (sc *screen) drawBox() {
	width := min(64, max(terminalWidth(), 12))
	inner := width - 4
	var b strings.Builder
	b.WriteString("╭" + strings.Repeat("─", width-2) + "╮\r\n")
	rows := 2
	for _, l := range sc.box {
		for _, part := range wrap(l, inner) {
			b.WriteString("│ " + part + strings.Repeat(" ", inner-utf8.RuneCountInString(part)) + " │\r\n")
			rows++
		}
	}
	b.WriteString("╰" + strings.Repeat("─", width-2) + "╯\r\n")
	os.Stdout.WriteString(b.String())
	sc.rows = rows
}

// wrap cuts a line into pieces of at most n runes, at spaces where it can.
// The pieces after the first hang under its text: past its indent, and
// past an option's number ("  2. No, and tell…"), as Ink lays out a
// wrapped label.
func wrap(line string, n int) []string {
	if utf8.RuneCountInString(line) <= n || n < 8 {
		return []string{line}
	}
	hang := len(line) - len(strings.TrimLeft(line, " "))
	if h := optionHang(line); h > 0 {
		hang = h
	}
	pad := strings.Repeat(" ", hang)
	var out []string
	rest := []rune(line)
	for len(rest) > n {
		cut := n
		for i := n; i > hang; i-- {
			if rest[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(rest[:cut]), " "))
		rest = []rune(pad + strings.TrimLeft(string(rest[cut:]), " "))
	}
	return append(out, string(rest))
}

// optionHang is how many runes of an option row come before its label
// ("  ❯ 2. "), 0 for a row that is no option.
func optionHang(line string) int {
	r := []rune(line)
	i := 0
	for i < len(r) && r[i] == ' ' {
		i++
	}
	if i+1 < len(r) && r[i] == '❯' && r[i+1] == ' ' {
		i += 2
	}
	if i+2 < len(r) && r[i] >= '1' && r[i] <= '9' && r[i+1] == '.' && r[i+2] == ' ' {
		return i + 3
	}
	return 0
}
