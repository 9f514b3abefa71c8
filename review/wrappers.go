package review

import "strings"

// wrapper describes a program that runs the command after its own flags:
// which of its flags take a value, and what else stands between it and the
// command.
type wrapper struct {
	sudo       bool     // sets the command's sudo mark
	valueShort string   // short flags that take a value (-u root, -uroot)
	valueLong  []string // long flags that take a value when written without '='
	assign     bool     // NAME=value words may follow
	operand    func(string) bool
	split      bool // env: -S/--split-string holds a command line
	dashAlone  bool // env: a lone '-' is a flag
}

// wrapperFor returns the wrapper named by a program's base name.
func wrapperFor(name string) (wrapper, bool) {
	w, ok := wrappers[name]
	return w, ok
}

// wrappers is a constant table: never written after initialisation.
var wrappers = map[string]wrapper{
	"sudo": {sudo: true, valueShort: "ugpUrtChDRT", assign: true,
		valueLong: []string{"--user", "--group", "--host", "--prompt", "--other-user", "--role", "--type",
			"--close-from", "--chdir", "--chroot", "--command-timeout", "--login-class"}},
	"doas": {sudo: true, valueShort: "uC"},
	"env": {valueShort: "uCS", assign: true, split: true, dashAlone: true,
		valueLong: []string{"--unset", "--chdir", "--split-string", "--block-signal", "--default-signal", "--ignore-signal"}},
	"nohup":     {},
	"command":   {},
	"builtin":   {},
	"noglob":    {},
	"nocorrect": {},
	"setsid":    {},
	"unbuffer":  {},
	"time":      {valueShort: "fo", valueLong: []string{"--format", "--output"}},
	"nice":      {valueShort: "n", valueLong: []string{"--adjustment"}},
	"exec":      {valueShort: "a"},
	"xargs": {valueShort: "adEILnPsJRS", valueLong: []string{"--arg-file", "--delimiter", "--eof", "--replace",
		"--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}},
	"timeout":    {valueShort: "sk", valueLong: []string{"--signal", "--kill-after"}, operand: isDuration},
	"stdbuf":     {valueShort: "ioe", valueLong: []string{"--input", "--output", "--error"}},
	"ionice":     {valueShort: "cnpPu", valueLong: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}},
	"chrt":       {valueShort: "TPD", valueLong: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}, operand: isDigits},
	"taskset":    {operand: func(string) bool { return true }},
	"caffeinate": {valueShort: "tw"},
}

// skip takes the wrapper's flags (and their values), assignments and leading
// operand off args and returns what is left: the wrapped command. For env
// -S it also returns the split string, a command line of its own.
func (w wrapper) skip(args []string) (rest []string, split string) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if a == "-" && w.dashAlone {
			i++
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			i++
			if strings.HasPrefix(a, "--") {
				name, value, hasValue := strings.Cut(a, "=")
				if !hasValue && contains(w.valueLong, name) && i < len(args) {
					value, hasValue = args[i], true
					i++
				}
				if w.split && name == "--split-string" && hasValue {
					return args[i:], value
				}
				continue
			}
			for k := 1; k < len(a); k++ {
				if strings.IndexByte(w.valueShort, a[k]) < 0 {
					continue
				}
				value := a[k+1:]
				if value == "" && i < len(args) {
					value = args[i]
					i++
				}
				if w.split && a[k] == 'S' {
					return args[i:], value
				}
				break
			}
			continue
		}
		if w.assign && isAssignment(a) {
			i++
			continue
		}
		break
	}
	if w.operand != nil && i < len(args) && w.operand(args[i]) {
		i++
	}
	return args[i:], ""
}

// isDuration reports whether w looks like a timeout duration: 10, 5s, 1.5m.
func isDuration(w string) bool {
	if w == "" {
		return false
	}
	if last := w[len(w)-1]; last == 's' || last == 'm' || last == 'h' || last == 'd' {
		w = w[:len(w)-1]
	}
	digits, dots := 0, 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
