//go:build linux

package detect

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The benchmarks run real processes as the foreground job of a shell on a
// PTY and read them through /proc, as a pane's detector does:
//
//	agent    the leader is the agent (a copy of sleep named claude)
//	plain    the leader is an ordinary program (sleep)
//	wrapper  sh -c "claude 1000; true": the walk stops at the agent
//	wrap30   sh -c spawning 30 background sleeps in the same group: the
//	         walk hits its 24-member bound and finds nothing
//	shell    the pane is at its shell prompt (bash, which wraps: its
//	         children in the foreground group are read every tick)
//
// "steady" is a tick with the same leader as the last one; "first" is the
// first look at a leader (the detector forgets the pane every iteration,
// so it also pays for opening the cached stat files). "floor" is a plain
// read of the same /proc files with os.ReadFile/os.Readlink, no matching.

func benchPane(b *testing.B, line, comm, member string) *pane {
	b.Helper()
	p := newPane(b)
	p.start(line, comm, member)
	return p
}

func benchShapes(b *testing.B) (map[string]*pane, *Detector) {
	f := newFakes(b)
	reg, _ := Load(LoadOptions{NoUser: true})
	d := NewDetector(DetectorOptions{Registry: reg})
	b.Cleanup(func() { d.Close() })
	ps := map[string]*pane{
		"agent":   benchPane(b, f.claude+" 1000", "claude", ""),
		"plain":   benchPane(b, "sleep 1000", "sleep", ""),
		"wrapper": benchPane(b, "sh -c '"+f.claude+" 1000; true'", "sh", "claude"),
		"wrap30":  benchPane(b, "sh -c 'for i in $(seq 30); do sleep 1000 & done; wait'", "sh", "sleep"),
		"shell":   newPane(b),
	}
	// Wait until all 30 sleeps run.
	for i := 0; i < 500 && groupCount(ps["wrap30"]) < 30; i++ {
		ps["wrap30"].waitFor("", func(Foreground) bool { return true })
	}
	return ps, d
}

func groupCount(p *pane) int {
	fg, _ := ReadForeground(p.shell)
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		bs, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		if st, ok := parseStat(bs); ok && st.pgrp == fg.Leader.PID && fg.Leader.PID != 0 {
			n++
		}
	}
	return n - 1
}

func BenchmarkDetect(b *testing.B) {
	ps, d := benchShapes(b)
	for _, shape := range []string{"agent", "plain", "wrapper", "wrap30", "shell"} {
		p := ps[shape]
		m, _ := d.Detect(p.shell)
		if (shape == "agent" || shape == "wrapper") != m.Agent {
			b.Fatalf("%s: %+v", shape, m)
		}
		b.Run(shape+"/steady", func(b *testing.B) {
			b.ReportAllocs()
			d.Detect(p.shell)
			for b.Loop() {
				d.Detect(p.shell)
			}
		})
		b.Run(shape+"/first", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Forget(p.shell)
				d.Detect(p.shell)
			}
		})
		b.Run(shape+"/floor", func(b *testing.B) {
			b.ReportAllocs()
			fg, _ := ReadForeground(p.shell)
			leader := strconv.Itoa(fg.Leader.PID)
			shell := strconv.Itoa(p.shell)
			var members []string
			if shape == "wrapper" || shape == "wrap30" {
				kids, _ := os.ReadFile("/proc/" + leader + "/task/" + leader + "/children")
				members = strings.Fields(string(kids))
				if len(members) > WalkMembers {
					members = members[:WalkMembers]
				}
			}
			for b.Loop() {
				os.ReadFile("/proc/" + shell + "/stat")
				os.ReadFile("/proc/" + leader + "/stat")
				os.ReadFile("/proc/" + leader + "/comm")
				os.ReadFile("/proc/" + leader + "/cmdline")
				os.Readlink("/proc/" + leader + "/exe")
				if members != nil {
					os.ReadFile("/proc/" + leader + "/task/" + leader + "/children")
					for _, k := range members {
						os.ReadFile("/proc/" + k + "/stat")
						os.ReadFile("/proc/" + k + "/cmdline")
						os.Readlink("/proc/" + k + "/exe")
					}
				}
			}
		})
	}
	b.Run("shell-stat/floor", func(b *testing.B) {
		b.ReportAllocs()
		path := "/proc/" + strconv.Itoa(ps["agent"].shell) + "/stat"
		for b.Loop() {
			os.ReadFile(path)
		}
	})
}
