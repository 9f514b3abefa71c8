package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/e2e"
)

// The README's SDK section shows this program whole: what a reader copies
// is what this package builds and the test below runs.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(e2e.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(src)+"```\n") {
		t.Errorf("README.md has no ```go block holding examples/states/main.go exactly; paste the file into the SDK section again")
	}
}

// Run on the pretend agent, the program prints the agent's states as it
// works and then leaves: working (the detector, which reads the process
// in front when the pane is attached), then none when the agent exits.
// The loop ends by itself, as the README says.
func TestStatesOfThePretendAgent(t *testing.T) {
	dir := t.TempDir()
	states, agent := filepath.Join(dir, "states"), filepath.Join(dir, "pretend-agent")
	e2e.Build(t, "./examples/states", states)
	e2e.Build(t, "./examples/pretend-agent", agent)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, states, agent, "--prompt=false", "--exit").CombinedOutput()
	if err != nil {
		t.Fatalf("states: %v\n%s", err, out)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		got = append(got, strings.Join(strings.Fields(line), " "))
	}
	if len(got) < 2 || got[0] != "● working detect" || got[len(got)-1] != "none" {
		t.Errorf("states printed %q, want working from detect first and none last", got)
	}
	for _, line := range got {
		if !regexp.MustCompile(`^(\S+ )?(none|working|needs_input|idle|done|errored|unknown)( \S+.*)?$`).MatchString(line) {
			t.Errorf("line %q is not GLYPH STATE SOURCE MESSAGE", line)
		}
	}
}
