package attention

import (
	"os"
	"strconv"
	"strings"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Crush's "Permission Required" dialog, read from the screen by the crush
// manifest's dialog rule (internal/daemon/herdr keeps the pane needs_input while
// it is up: Crush ≤ v0.97.1 may report working after blocked). TUIOS
// answers the dialog only when a Crush process is in the pane.

const crushHarness = "crush"

// crushRespondCheck refuses to answer a prompt read by Crush's rules
// when no Crush process runs in the pane: the screen alone may be
// another program showing the same words.
func crushRespondCheck(w core.Pane, harness, name string) *proto.Error {
	if harness != crushHarness || crushInPane(w) {
		return nil
	}
	return proto.Errorf(proto.CodeInvalidParams, "the prompt of %s reads as Crush's, but no crush process runs in the pane; nothing was pressed", name).
		WithHint(proto.Hint{Detail: "answer it in the pane: TUIOS answers a Crush dialog only when it sees a crush process in the pane"})
}

// crushInPane says whether a process named crush runs in the pane: in
// the pane's foreground process group or among the descendants of the
// pane's first process (that process included).
func crushInPane(w core.Pane) bool {
	root := w.Pid()
	fg, _ := w.ForegroundPgrp()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		// No /proc (darwin): the foreground leader is what can be seen.
		f, err := detect.ReadForeground(root)
		return err == nil && f.Running && f.Leader.Comm == crushHarness
	}
	return crushAmong(readProcTable(), root, fg)
}

// procRow is one process's comm, parent and process group.
type procRow struct {
	comm       string
	ppid, pgrp int
}

// readProcTable reads every process's stat from /proc; a process gone
// mid-read is skipped.
func readProcTable() map[int]procRow {
	out := map[int]procRow{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			continue
		}
		f := strings.Fields(s[shut+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		out[pid] = procRow{comm: s[open+1 : shut], ppid: ppid, pgrp: pgrp}
	}
	return out
}

// crushAmong looks for a process named crush in the process group fg
// (when positive) or in the tree rooted at root.
func crushAmong(table map[int]procRow, root, fg int) bool {
	children := map[int][]int{}
	for pid, r := range table {
		if fg > 0 && r.pgrp == fg && r.comm == crushHarness {
			return true
		}
		children[r.ppid] = append(children[r.ppid], pid)
	}
	if root <= 0 {
		return false
	}
	seen := map[int]bool{}
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if r, ok := table[pid]; ok && r.comm == crushHarness {
			return true
		}
		stack = append(stack, children[pid]...)
	}
	return false
}
