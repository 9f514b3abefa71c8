package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/tuios/tuios/pty"
)

// editOpsScript exercises the editing and cursor controls programs use:
// tab stops, ICH/DCH/ECH/REP, insert mode, DEC special graphics, the
// pending-wrap column, DECAWM off, CHA/HPA/VPA/CNL/CPL, CUF/CUB/CUD/CUU,
// EL and ED variants, alternate screens 1049 and 47, save/restore cursor
// and a wide character at the right margin.
func editOpsScript(dir string) error {
	script := `e() { printf '\033%s' "$1"; }
e '[H'; e '[2J'
printf 'a\tb\tc\td\n'
e '[3g'; e '[2;20H'; e 'H'; e '[2;40H'; e 'H'; e '[2;1H'; printf 'x\tT1\tT2\tT3'
e '[3;1H'; printf '0123456789ABCDEF'; e '[3;5H'; e '[3@'
e '[4;1H'; printf '0123456789ABCDEF'; e '[4;5H'; e '[3P'
e '[5;1H'; printf '0123456789ABCDEF'; e '[5;5H'; e '[3X'
e '[6;1H'; printf 'R'; e '[9b'
e '[7;1H'; printf 'insert mode: world'; e '[7;15H'; e '[4h'; printf 'hello '; e '[4l'
e '(0'
e '[8;1H'; printf 'lqqqqwqqqqk'
e '[9;1H'; printf 'x    x    x'
e '[10;1H'; printf 'tqqqqnqqqqu'
e '[11;1H'; printf 'mqqqqvqqqqj  afgy{|}~'
e '(B'
e '[12;1H'; printf '%0120d' 0; printf '\rX'
e '[14;1H'; printf '%0120d' 7; printf 'W'
e '[?7l'; e '[17;115H'; printf 'abcdefghij'; e '[?7h'
e '[18;1H'; printf 'start'; e '[30G'; printf 'CHA30'; e '[50` + "`" + `'; printf 'HPA50'; e '[20d'; printf 'VPA20'; e '[2E'; printf 'CNL2'; e '[1F'; printf 'CPL1'
e '[24;1H'; printf 'L'; e '[10C'; printf 'CUF'; e '[5D'; printf 'b'; e '[2B'; printf 'CUD'; e '[1A'; printf 'CUU'
e '[28;1H'; printf 'erase-right-of-here:XXXXXXXX'; e '[28;21H'; e '[K'
e '[29;1H'; printf 'YYYYYYYYYY:erase-left'; e '[29;10H'; e '[1K'
e '[30;1H'; printf 'whole line erased'; e '[2K'
e '[31;1H'; printf 'main screen text'
e '[?1049h'; e '[H'; printf 'ALT SCREEN 1049'; e '[?1049l'; printf ' after 1049'
e '[?47h'; e '[2J'; printf 'alt47'; e '[?47l'
e '[32;1H'; printf '\033[31;1;4mred bold underline\033[0m \033[38;5;208m256\033[0m \033[38;2;10;20;30mtruecolor\033[0m'
e '[33;1H'; printf 'save'; e '7'; e '[35;60H'; printf 'elsewhere'; e '8'; printf '+restore'
e '[36;1H'; printf 'keep this part|erase this'; e '[36;15H'; e '[J'
e '[37;118H'; printf 'ab字'
e '[39;1H'; printf 'line 39'; e '[39;1H'; e '[1L'; printf 'inserted line'
e '[40;1H'; printf 'end of edit ops'
`
	return os.WriteFile(filepath.Join(dir, "editops.sh"), []byte(script), 0o644)
}

// bashSession types into an interactive bash (readline): editing keys,
// a failing command, a command line that wraps, ^C, colours, exit.
func bashSession(p *pty.Process, r *recorder) (int, error) {
	step := func(s string) {
		send(p, s)
		time.Sleep(150 * time.Millisecond)
		r.quiet(150*time.Millisecond, 3*time.Second)
	}
	if err := r.waitFor("$ ", 5*time.Second); err != nil {
		return 0, err
	}
	step("echo hello world")
	step("\x01X\r") // ^A, insert X at the start: "Xecho" is not a command
	step("echo one two three\x17\x17four\r")
	step("echo 'a long command line that is typed until it wraps past the right margin of the one hundred and twenty column pane' | wc -c\r")
	step("sleep 10\r")
	step("\x03")
	step("printf '\\033[31mred\\033[0m and \\033[1mbold\\033[0m\\n'\r")
	step("for i in 1 2 3; do echo \"loop $i\"; done\r")
	step("echo typed then cleared\x15")
	step("exit\r")
	return -1, nil
}

// inkOverflowScript imitates ink when its dynamic output is taller than
// the terminal: each frame clears the screen and the history
// (ESC[2J ESC[3J ESC[H) and prints everything again.
func inkOverflowScript(dir string) error {
	script := `f=0
while [ $f -lt 5 ]; do
	printf '\033[2J\033[3J\033[H'
	printf 'static header (frame %d)\n' $f
	i=1
	while [ $i -le 45 ]; do
		printf '  todo %02d: %s\n' $i "$( [ $i -le $((f * 9)) ] && echo done || echo pending)"
		i=$((i+1))
	done
	printf '\033[33m✶ Working… (frame %d)\033[0m\n' $f
	f=$((f+1))
done
`
	return os.WriteFile(filepath.Join(dir, "overflow.sh"), []byte(script), 0o644)
}

// oscScript interleaves text with the OSC sequences agents send: progress
// (OSC 9;4), program status (OSC 7501), notifications (OSC 9, 777), title
// (OSC 0/2) and working directory (OSC 7), with BEL and ST terminators.
// None of it may show on the screen.
func oscScript(dir string) error {
	script := `printf 'before\n'
printf '\033]0;agent title\007'
printf '\033]9;4;3\033\\'
printf 'indeterminate\n'
printf '\033]9;4;1;42\007'
printf 'forty-two percent\n'
printf '\033]9;4;7\007'
printf '\033]9;Build finished\007'
printf '\033]7501;state=working:app=build:progress=40\033\\'
printf 'working\n'
printf '\033]7501;state=blocked:kind=permission:app=deploy:msg=QXBwcm92ZSBkZXBsb3kgdG8gcHJvZHVjdGlvbj8\007'
printf '\033]7;file://localhost/tmp/project\007'
printf '\033]777;notify;Claude Code;needs your permission\007'
printf '\033]2;second title\033\\'
printf '\033]9;4;0\007'
printf '\033]7501;state=clear\007'
printf 'after\n'
`
	return os.WriteFile(filepath.Join(dir, "osc.sh"), []byte(script), 0o644)
}
