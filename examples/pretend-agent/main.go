// Command pretend-agent behaves like a coding agent in a terminal, for tests
// and demos of agent tracking: it works (with OSC 9;4 progress), stops on a
// permission prompt drawn the way Claude Code draws it and waits for 1 or 2,
// then finishes its turn and waits at an idle prompt.
//
//	go run ./examples/pretend-agent                 # one turn with a prompt
//	go run ./examples/pretend-agent -prompt=false   # a turn with no prompt
//	go run ./examples/pretend-agent -error          # the turn fails
//	go run ./examples/pretend-agent -silence        # works, then goes silent
//	go run ./examples/pretend-agent -finish done    # reports done with OSC 7501
//
// With -as NAME (default claude-code) it re-executes itself with
// TUIOS_AGENT=NAME in its environment, so tuios's detector attributes it to
// that harness (and reads that harness's screen rules) without a real
// agent installed. Under `go run` it takes the terminal's foreground from
// the go command, so a tracker reading the foreground sees it and not go.
// -h lists every flag.
package main

import (
	"os"

	"github.com/tuios/tuios/internal/pretend"
)

func main() { os.Exit(pretend.Main(os.Args[1:])) }
