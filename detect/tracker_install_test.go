package detect_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
)

// place puts the pretend agent at path (a hard link when it can, else a
// copy), so /proc/<pid>/exe names path itself, as a real install's does.
func place(t *testing.T, path string) {
	t.Helper()
	src := filepath.Join(agentBin(t), "claude")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Link(src, path) == nil {
		return
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
}

func writePackage(t *testing.T, dir, name, version string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	body := `{"name":"` + name + `","version":"` + version + `","bin":{"claude":"bin/claude.exe"}}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func transcriptRec(work, version, typ, stop string) string {
	return `{"type":"` + typ + `","sessionId":"s","cwd":"` + work + `","version":"` + version + `","message":{"content":"secret","stop_reason":"` + stop + `"}}` + "\n"
}

// waitArmed waits (bounded, in real time) until the watcher has armed a
// debounce timer on the fake clock: inotify saw the change.
func waitArmed(t *testing.T, clock *fakeclock.Clock, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for clock.Pending() <= base {
		if time.Now().After(deadline) {
			t.Fatal("no inotify event")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Every shape Claude Code is installed in joins its transcript without a
// hook: the search verifies the file by the version the install says it
// is (the native installer's file name, the npm package's package.json,
// under node the script's package), and end_turn reads done at source
// transcript. A transcript of another version is never joined.
func TestHooklessJoinVerifiesEachInstallShape(t *testing.T) {
	const version = "9.8.7"
	flags := " -as= -silence -steps=1 -step=10ms"
	shapes := []struct {
		name  string
		setup func(t *testing.T, root string) string // returns the command line
	}{
		{"native versions dir", func(t *testing.T, root string) string {
			exe := filepath.Join(root, ".local/share/claude/versions", version)
			place(t, exe)
			return exe + flags
		}},
		{"npm bin/claude.exe", func(t *testing.T, root string) string {
			pkg := filepath.Join(root, "prefix/node_modules/@anthropic-ai/claude-code")
			writePackage(t, pkg, "@anthropic-ai/claude-code", version)
			place(t, filepath.Join(pkg, "bin/claude.exe"))
			bin := filepath.Join(root, "prefix/node_modules/.bin")
			os.MkdirAll(bin, 0o755)
			os.Symlink("../@anthropic-ai/claude-code/bin/claude.exe", filepath.Join(bin, "claude"))
			return filepath.Join(bin, "claude") + flags
		}},
		{"npx cache", func(t *testing.T, root string) string {
			pkg := filepath.Join(root, ".npm/_npx/0f1e2d3c4b5a6978/node_modules/@anthropic-ai/claude-code")
			writePackage(t, pkg, "@anthropic-ai/claude-code", version)
			place(t, filepath.Join(pkg, "bin/claude.exe"))
			return filepath.Join(pkg, "bin/claude.exe") + flags
		}},
		{"npm cli.js under node", func(t *testing.T, root string) string {
			pkg := filepath.Join(root, "lib/node_modules/@anthropic-ai/claude-code")
			writePackage(t, pkg, "@anthropic-ai/claude-code", version)
			os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/usr/bin/env node\n"), 0o755)
			node := filepath.Join(root, "nodejs/bin/node") // the pretend agent, named node
			place(t, node)
			return node + flags + " " + filepath.Join(pkg, "cli.js")
		}},
	}
	for _, shape := range shapes {
		for _, match := range []bool{true, false} {
			name := shape.name
			if !match {
				name += ", another version"
			}
			t.Run(name, func(t *testing.T) {
				home := t.TempDir()
				work := t.TempDir()
				clock := fakeclock.New(time.Unix(0, 0))
				w, err := transcriptWatcher(clock)
				if err != nil {
					t.Skip(err)
				}
				defer w.Close()
				r := newTrackerRigClock(t, clock, detect.TrackerOptions{StallAfter: -1, Home: home, Watcher: w})
				dir := filepath.Join(home, ".claude", "projects", transcript.ProjectName(work))
				os.MkdirAll(dir, 0o700)
				v := version
				if !match {
					v = "9.8.6"
				}
				os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(transcriptRec(work, v, "user", "")+transcriptRec(work, v, "assistant", "end_turn")), 0o600)

				r.typeLine("cd " + work + " && " + shape.setup(t, t.TempDir()))
				r.waitScreen("never answers")
				writtenNow(t, filepath.Join(dir, "s.jsonl")) // by the agent, since it started
				r.clock.Advance(hooklessSearch)
				got := r.state()
				if got.Harness != "claude-code" {
					t.Fatalf("not attributed: %+v\n%+v", got, r.pane.Foreground())
				}
				if match {
					r.want(agentstate.Done, "transcript")
				} else if got.SourceName() == "transcript" {
					t.Fatalf("a transcript of another version was joined: %+v", got)
				}
			})
		}
	}
}

// A hunt watches the directory the transcript will appear in: the file
// Claude Code writes when the first prompt is submitted, in a project
// directory made at that moment, is joined on the directory's change,
// without waiting for the next search (joinRetry), and the turn's end
// reads done on the file's own watch. On a first run at all, before
// Claude Code has made ~/.claude, the hunt watches home and follows the
// directories down as they appear. Detaching ends every watch.
func TestAHuntJoinsTheTranscriptWhenItAppears(t *testing.T) {
	for _, firstRun := range []bool{false, true} {
		name := "first run in a directory"
		if firstRun {
			name = "first run at all"
		}
		t.Run(name, func(t *testing.T) { huntJoins(t, firstRun) })
	}
}

func huntJoins(t *testing.T, firstRun bool) {
	home := t.TempDir()
	work := t.TempDir()
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := transcriptWatcher(clock)
	if err != nil {
		t.Skip(err)
	}
	defer w.Close()
	r := newTrackerRigClock(t, clock, detect.TrackerOptions{StallAfter: -1, Home: home, Watcher: w})
	projects := filepath.Join(home, ".claude", "projects")
	if !firstRun {
		os.MkdirAll(projects, 0o700) // no project directory yet
	}

	r.typeLine("cd " + work + " && claude -as '' -silence -steps 1 -step 10ms")
	r.waitScreen("never answers")
	r.clock.Advance(hooklessSearch) // attributed; no session file came, and the hunt's search finds nothing
	if w.Dirs() != 1 {
		t.Fatalf("the hunt watches %d directories, want 1", w.Dirs())
	}
	if got := r.state(); got.SourceName() == "transcript" {
		t.Fatalf("joined with no file: %+v", got)
	}
	if firstRun {
		// Claude Code starts: ~/.claude appears, and the hunt moves there.
		base := r.clock.Pending()
		os.MkdirAll(filepath.Join(home, ".claude", "sessions"), 0o700)
		waitArmed(t, r.clock, base)
		r.clock.Advance(transcript.Debounce)
		if w.Dirs() != 1 {
			t.Fatalf("the hunt watches %d directories, want 1 (~/.claude)", w.Dirs())
		}
	}

	// The prompt is submitted: the project directory and the file appear.
	base := r.clock.Pending()
	dir := filepath.Join(projects, transcript.ProjectName(work))
	os.MkdirAll(dir, 0o700)
	file := filepath.Join(dir, "s.jsonl")
	os.WriteFile(file, []byte(transcriptRec(work, "claude", "user", "")), 0o600)
	waitArmed(t, r.clock, base)
	r.clock.Advance(transcript.Debounce) // well before joinRetry
	r.want(agentstate.Working, "transcript")
	if w.Dirs() != 1 {
		t.Fatalf("joined: %d directories watched, want 1 (the file's)", w.Dirs())
	}

	// The turn ends.
	base = r.clock.Pending()
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(transcriptRec(work, "claude", "assistant", "end_turn"))
	f.Close()
	waitArmed(t, r.clock, base)
	r.clock.Advance(transcript.Debounce)
	r.want(agentstate.Done, "transcript")

	r.tr.Detach("w")
	if w.Dirs() != 0 {
		t.Fatalf("%d directories watched after Detach", w.Dirs())
	}
}

// A hook's transcript_path ends a hunt: the exact join wins, the hunt's
// directory watch goes, and no search runs after it.
func TestAHookPathEndsTheHunt(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := transcriptWatcher(clock)
	if err != nil {
		t.Skip(err)
	}
	defer w.Close()
	r := newTrackerRigClock(t, clock, detect.TrackerOptions{StallAfter: -1, Home: home, Watcher: w})
	dir := filepath.Join(home, ".claude", "projects", transcript.ProjectName(work))
	os.MkdirAll(dir, 0o700)
	// Two files verify: the search refuses to guess and keeps hunting.
	for _, n := range []string{"a.jsonl", "b.jsonl"} {
		os.WriteFile(filepath.Join(dir, n), []byte(transcriptRec(work, "claude", "user", "")), 0o600)
	}
	r.typeLine("cd " + work + " && claude -as '' -silence -steps 1 -step 10ms")
	r.waitScreen("never answers")
	writtenNow(t, filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	r.clock.Advance(hooklessSearch)
	if got := r.state(); got.SourceName() == "transcript" {
		t.Fatalf("joined one of two candidates: %+v", got)
	}
	if w.Dirs() != 1 {
		t.Fatalf("the hunt watches %d directories", w.Dirs())
	}
	elsewhere := t.TempDir()
	exact := filepath.Join(elsewhere, "exact.jsonl")
	os.WriteFile(exact, []byte(transcriptRec(work, "claude", "user", "")+transcriptRec(work, "claude", "assistant", "end_turn")), 0o600)
	r.pane.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"}, exact)
	if w.Dirs() != 1 {
		t.Fatalf("%d directories watched, want 1 (the exact file's)", w.Dirs())
	}
	// More changes in the project directory start no search: the hunt
	// is over.
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(transcriptRec(work, "claude", "assistant", "")), 0o600)
	os.Remove(filepath.Join(dir, "b.jsonl"))
	r.clock.Advance(30 * time.Second)
	if w.Dirs() != 1 {
		t.Fatalf("%d directories watched after changes in the project directory", w.Dirs())
	}
	r.tr.Detach("w")
	if w.Dirs() != 0 {
		t.Fatalf("%d directories watched after Detach", w.Dirs())
	}
}

// writtenNow sets the files' modification time to now: the agent wrote
// them since it started.
func writtenNow(t *testing.T, paths ...string) {
	t.Helper()
	now := time.Now()
	for _, p := range paths {
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
	}
}

// A transcript last written before the agent started is an earlier
// session's, however well it verifies: a hookless search never joins it,
// and joins the agent's own once it is written. (Claude Code under load
// can take seconds to write its session file; the search must not guess
// meanwhile.)
func TestAHuntSkipsTranscriptsOlderThanTheAgent(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := transcriptWatcher(clock)
	if err != nil {
		t.Skip(err)
	}
	defer w.Close()
	r := newTrackerRigClock(t, clock, detect.TrackerOptions{StallAfter: -1, Home: home, Watcher: w})
	dir := filepath.Join(home, ".claude", "projects", transcript.ProjectName(work))
	os.MkdirAll(dir, 0o700)
	earlier := filepath.Join(dir, "earlier.jsonl")
	os.WriteFile(earlier, []byte(transcriptRec(work, "claude", "user", "")+transcriptRec(work, "claude", "assistant", "end_turn")), 0o600)
	yesterday := time.Now().Add(-24 * time.Hour)
	os.Chtimes(earlier, yesterday, yesterday)

	r.typeLine("cd " + work + " && claude -as '' -silence -steps 1 -step 10ms")
	r.waitScreen("never answers")
	r.clock.Advance(hooklessSearch + 2*detect.DefaultDetectInterval)
	if got := r.state(); got.SourceName() == "transcript" {
		t.Fatalf("an earlier session's transcript was joined: %+v", got)
	}
	base := r.clock.Pending()
	os.WriteFile(filepath.Join(dir, "own.jsonl"), []byte(transcriptRec(work, "claude", "user", "")), 0o600)
	waitArmed(t, r.clock, base)
	r.clock.Advance(transcript.Debounce)
	r.want(agentstate.Working, "transcript")
}
