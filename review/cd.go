package review

import "strings"

// cdDirs follows cd and pushd through a line's commands in line order, so
// that the relative paths after `cd /tmp &&` are read from /tmp and those
// after `cd sub &&` from dir/sub. It returns nil when the line has no cd
// (every command then reads from dir). After a cd whose target is not known
// (cd -, cd "$X", popd, a cd with no home known) the directory is "" and
// relative paths there are not judged: that is the carve-out for a line
// written to hide where it writes.
//
// A subshell's cd is followed as if it were not in one: the reader keeps
// the commands in line order but not their nesting, and a cd that leaks
// errs towards reading the later paths from somewhere else, which at worst
// judges them where the subshell was.
func cdDirs(cmds []*command, home, dir string) map[*command]string {
	var m map[*command]string
	cur := dir
	for _, c := range cmds {
		if m != nil {
			m[c] = cur
		}
		switch c.prog {
		case "cd", "pushd", "popd", "chdir":
		default:
			continue
		}
		if m == nil {
			m = make(map[*command]string, len(cmds))
			for _, before := range cmds {
				if before == c {
					break
				}
				m[before] = dir
			}
			m[c] = cur
		}
		cur = cdTarget(c, home, cur)
	}
	return m
}

// cdTarget is where c (a cd, pushd or popd) leaves the shell, or "" when
// that is not known.
func cdTarget(c *command, home, cur string) string {
	if c.prog == "popd" {
		return ""
	}
	ops := argsFlags(c).operands
	switch {
	case len(ops) == 0:
		if c.prog == "pushd" {
			return "" // swaps with the stack
		}
		ops = []string{"~"}
	case ops[0] == "-" || strings.HasPrefix(ops[0], "+") || len(ops) > 1: // the last dir, the stack
		return ""
	}
	abs, ok := resolvePath(unquote(ops[0]), home, cur)
	if !ok {
		return ""
	}
	return abs
}
