package pty

import (
	"bytes"
	"errors"
	"strconv"
)

// parseStatTpgid returns field 8 (tpgid) of a /proc/<pid>/stat line.
func parseStatTpgid(b []byte) (int, error) { return statField(b, 8) }

// parseStatSession returns field 6 (session) of a /proc/<pid>/stat line.
func parseStatSession(b []byte) (int, error) { return statField(b, 6) }

// statZombie reports whether a /proc/<pid>/stat line's state (field 3,
// after the last ')') is Z: the process has ended and waits to be reaped.
func statZombie(b []byte) bool {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(b[i+1:], " ")
	return len(rest) > 0 && rest[0] == 'Z'
}

// statField returns numeric field n (n >= 3) of a /proc/<pid>/stat line.
// The comm field (2) may hold spaces and parentheses, so parsing starts
// after the last ')': the fields after it are state(3), ppid(4), pgrp(5),
// session(6), tty_nr(7), tpgid(8).
func statField(b []byte, n int) (int, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("malformed stat: no ')'")
	}
	rest := b[i+1:]
	for field := 3; ; field++ {
		rest = bytes.TrimLeft(rest, " \t\n")
		if len(rest) == 0 {
			return 0, errors.New("malformed stat: too few fields")
		}
		end := bytes.IndexAny(rest, " \t\n")
		if end < 0 {
			end = len(rest)
		}
		if field == n {
			v, err := strconv.Atoi(string(rest[:end]))
			if err != nil {
				return 0, errors.New("malformed stat: field " + strconv.Itoa(n) + " is not a number")
			}
			return v, nil
		}
		rest = rest[end:]
	}
}
