package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/standin"
)

// The real Claude Code, installed from npm, in a pane of the real daemon,
// with no hook: one turn against the Messages API stand-in must end with
// the pane done at source transcript, read from the file Claude Code
// writes, for each shape the install can take.
//
// Claude Code is looked for under $TUIOS_AGENTS_PREFIX (default
// /tmp/agents), an npm prefix: node_modules/.bin/claude is the npm shim.

const standinKey = "sk-ant-api03-tuios-standin-0123456789abcdefghij"

// claudeInstall is what an npm install of Claude Code left.
type claudeInstall struct {
	prefix  string // the npm prefix
	shim    string // node_modules/.bin/claude
	pkg     string // node_modules/@anthropic-ai/claude-code
	version string // its package.json version
	native  string // the native binary: the shim's target, else the platform package's
	stub    bool   // the shim's target is npm's stub (the postinstall did not run)
}

func findClaude(t testing.TB) claudeInstall {
	t.Helper()
	prefix := os.Getenv("TUIOS_AGENTS_PREFIX")
	if prefix == "" {
		prefix = "/tmp/agents"
	}
	in := claudeInstall{prefix: prefix, shim: filepath.Join(prefix, "node_modules", ".bin", "claude")}
	target, err := filepath.EvalSymlinks(in.shim)
	if err != nil {
		t.Skipf("no Claude Code npm install: %s is missing (install @anthropic-ai/claude-code under an npm prefix and point TUIOS_AGENTS_PREFIX at it)", in.shim)
	}
	in.pkg = filepath.Dir(filepath.Dir(target))
	var pj struct{ Name, Version string }
	b, err := os.ReadFile(filepath.Join(in.pkg, "package.json"))
	if err != nil || json.Unmarshal(b, &pj) != nil || pj.Name != "@anthropic-ai/claude-code" || pj.Version == "" {
		t.Skipf("%s does not lead to the @anthropic-ai/claude-code package", in.shim)
	}
	in.version = pj.Version
	if isELF(target) {
		in.native = target
		return in
	}
	// npm --ignore-scripts leaves bin/claude.exe a stub that only
	// complains; the binary is in the platform package beside it.
	in.stub = true
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	for _, plat := range []string{runtime.GOOS + "-" + arch, runtime.GOOS + "-" + arch + "-musl"} {
		p := filepath.Join(filepath.Dir(in.pkg), "claude-code-"+plat, "claude")
		if isELF(p) {
			in.native = p
			return in
		}
	}
	t.Skipf("the Claude Code install under %s has no native binary for %s/%s", prefix, runtime.GOOS, runtime.GOARCH)
	return in
}

// findNativeClaude is findClaude for a test that runs Claude Code: it
// skips when npm's postinstall did not run (bin/claude.exe is its stub).
func findNativeClaude(t testing.TB) claudeInstall {
	t.Helper()
	in := findClaude(t)
	if in.stub {
		t.Skip("this Claude Code install has npm's stub as bin/claude.exe (postinstall not run)")
	}
	return in
}

func isELF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && string(b[:]) == "\x7fELF"
}

// linkOrCopy puts src at dst: a hard link when both are on one file
// system, else a copy. Never a symlink: /proc/<pid>/exe would resolve it
// and the process would not run from dst.
func linkOrCopy(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Link(src, dst) == nil {
		return
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// seedClaudeHome writes the ~/.claude.json that skips Claude Code's
// first-run questions, found by trying each in tmux on 2.1.197: onboarding
// (the theme choice, then a connectivity check that fails here), the
// workspace trust question for work, and whether to use the
// ANTHROPIC_API_KEY found in the environment (answered by the key's last
// 20 characters). Nothing else is needed.
func seedClaudeHome(t testing.TB, home, work string) {
	t.Helper()
	seed := map[string]any{
		"hasCompletedOnboarding": true,
		"customApiKeyResponses":  map[string]any{"approved": []string{standinKey[len(standinKey)-20:]}, "rejected": []string{}},
		"projects":               map[string]any{work: map[string]any{"hasTrustDialogAccepted": true}},
	}
	b, _ := json.MarshalIndent(seed, "", "  ")
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// seedClaude seeds the env's home for Claude Code with the env's work
// folder trusted (seedClaudeHome), and gives both.
func (e *env) seedClaude() (home, work string) {
	e.t.Helper()
	home, work = filepath.Join(e.dir, "home"), e.workDir()
	seedClaudeHome(e.t, home, work)
	return home, work
}

// endTurnAt is the timestamp Claude Code gave the record that ended its
// turn (the last assistant record with stop_reason end_turn).
func endTurnAt(t *testing.T, transcript string) time.Time {
	t.Helper()
	b, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	var at time.Time
	for _, line := range bytes.Split(b, []byte("\n")) {
		var rec struct {
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
			Message   struct {
				StopReason string `json:"stop_reason"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Type != "assistant" || rec.Message.StopReason != "end_turn" {
			continue
		}
		if ts, err := time.Parse(time.RFC3339Nano, rec.Timestamp); err == nil {
			at = ts
		}
	}
	if at.IsZero() {
		t.Fatalf("no end_turn record in %s", transcript)
	}
	return at
}

func TestRealClaudeCodeTurnEndsDoneFromItsTranscript(t *testing.T) {
	t.Parallel()
	in := findClaude(t)
	t.Logf("Claude Code %s from %s (postinstall ran: %v)", in.version, in.prefix, !in.stub)
	shapes := []struct {
		name string
		cmd  func(t *testing.T, home, scratch string) string
	}{
		// The npm shim, node_modules/.bin/claude → …/claude-code/bin/claude.exe.
		// An install made with --ignore-scripts has npm's stub there: the
		// test then lays out what the postinstall leaves, in a scratch
		// prefix (the package.json, the binary as bin/claude.exe).
		{"npm shim", func(t *testing.T, home, scratch string) string {
			if !in.stub {
				return in.shim
			}
			pkg := filepath.Join(scratch, "node_modules", "@anthropic-ai", "claude-code")
			linkOrCopy(t, filepath.Join(in.pkg, "package.json"), filepath.Join(pkg, "package.json"))
			linkOrCopy(t, in.native, filepath.Join(pkg, "bin", "claude.exe"))
			bin := filepath.Join(scratch, "node_modules", ".bin")
			os.MkdirAll(bin, 0o755)
			if err := os.Symlink("../@anthropic-ai/claude-code/bin/claude.exe", filepath.Join(bin, "claude")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(bin, "claude")
		}},
		// The native installer: ~/.local/bin/claude → ~/.local/share/claude/versions/<version>.
		{"native installer", func(t *testing.T, home, scratch string) string {
			exe := filepath.Join(home, ".local", "share", "claude", "versions", in.version)
			linkOrCopy(t, in.native, exe)
			bin := filepath.Join(home, ".local", "bin")
			os.MkdirAll(bin, 0o755)
			if err := os.Symlink(exe, filepath.Join(bin, "claude")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(bin, "claude")
		}},
		// npm's fallback launcher under node: node …/claude-code/cli-wrapper.cjs
		// runs the platform package's binary as its child.
		{"npm wrapper under node", func(t *testing.T, home, scratch string) string {
			node, err := exec.LookPath("node")
			wrapper := filepath.Join(in.pkg, "cli-wrapper.cjs")
			if _, serr := os.Stat(wrapper); err != nil || serr != nil {
				t.Skip("no node, or no cli-wrapper.cjs in this release")
			}
			return node + " " + wrapper
		}},
	}
	for _, shape := range shapes {
		t.Run(shape.name, func(t *testing.T) {
			t.Parallel() // each turn has its own world and stand-in
			claudeTurn(t, shape.cmd, "", nil)
		})
	}
	// Every earlier session in the directory, by the same version, left a
	// transcript that verifies as well as the new one: a search refuses to
	// guess, or (with one) takes the earlier one before the new one is
	// written. The pane joins by Claude Code's session file for its pid
	// (~/.claude/sessions/<pid>.json) instead.
	t.Run("npm shim, after an earlier session", func(t *testing.T) {
		t.Parallel()
		claudeTurn(t, shapes[0].cmd, in.version, nil)
	})
	// Under npm's node launcher the agent detected is node, and its child
	// (the binary) writes the session file for its own pid.
	t.Run("npm wrapper under node, after an earlier session", func(t *testing.T) {
		t.Parallel()
		claudeTurn(t, shapes[2].cmd, in.version, nil)
	})
}

// earlierSession is the id of the session writeEarlierSession leaves.
const earlierSession = "0e1d2c3b-4a59-4687-9786-a5b4c3d2e1f0"

// writeEarlierSession leaves in work's project directory the transcript
// of a finished session of Claude Code version: the records 2.1.197
// writes for one turn, ended (a join to it reads done at once).
func writeEarlierSession(t *testing.T, home, work, version string) string {
	t.Helper()
	dir := filepath.Join(home, ".claude", "projects", strings.ReplaceAll(work, "/", "-"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := earlierSession
	at := time.Now().Add(-24 * time.Hour).UTC()
	ts := func(d time.Duration) string { return at.Add(d).Format("2006-01-02T15:04:05.000Z") }
	common := func(uuid, parent string, d time.Duration) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `"parentUuid":` + p + `,"isSidechain":false,"uuid":"` + uuid + `","timestamp":"` + ts(d) +
			`","userType":"external","entrypoint":"cli","cwd":"` + work + `","sessionId":"` + id + `","version":"` + version + `","gitBranch":"HEAD"`
	}
	lines := []string{
		`{"type":"mode","mode":"normal","sessionId":"` + id + `"}`,
		`{"type":"permission-mode","permissionMode":"default","sessionId":"` + id + `"}`,
		`{"type":"user","message":{"role":"user","content":"Say hello"},` + common("u1", "", 0) + `}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","stop_sequence":null},` + common("a1", "u1", time.Second) + `}`,
		`{"type":"system","subtype":"turn_duration","durationMs":1000,"isMeta":false,` + common("s1", "a1", 2*time.Second) + `}`,
		`{"type":"last-prompt","lastPrompt":"Say hello","sessionId":"` + id + `"}`,
	}
	path := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// claudeTurn runs one hookless Claude Code turn in a pane and checks the
// pane ends it done, at source transcript, soon after the turn's end.
// With earlierVersion, an earlier session of that version left its
// transcript in the project directory first: the pane must neither read
// it nor be kept from joining the new one by it. place makes the folder
// the turn runs in: its real path, and the path the shell changes to (a
// symlink may lead there); nil is the env's plain work directory.
func claudeTurn(t *testing.T, command func(t *testing.T, home, scratch string) string, earlierVersion string, place func(t *testing.T, e *env) (real, cd string)) {
	realAgent(t, lightAgent)
	const answer = "Hello from the stand-in."
	api := startStandin(t, standin.Options{Turns: []standin.Reply{{Text: answer, Delay: 1500 * time.Millisecond, Gap: 20 * time.Millisecond}}})

	e := newEnv(t)
	home := filepath.Join(e.dir, "home")
	work := e.workDir()
	cd := work
	if place != nil {
		work, cd = place(t, e)
	}
	seedClaudeHome(t, home, work)
	earlier := ""
	if earlierVersion != "" {
		earlier = writeEarlierSession(t, home, work, earlierVersion)
	}
	cmd := command(t, home, t.TempDir())
	e.vars = append(e.vars,
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY="+standinKey,
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)

	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	events := e.watchAgentEvents(t)
	e.ok("send-text", "-s", "work", "cd "+singleQuoted(cd)+" && "+cmd+"\n")
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `for shortcuts`, "--timeout", "60000"); r.code != 0 {
		t.Fatalf("Claude Code's prompt never came:\n%s", e.ok("capture-pane", "-s", "work"))
	}
	// The detection tick attributes the pane, and its hunt for a
	// transcript starts there: no file exists yet (Claude Code writes it
	// when the first prompt is submitted), so the hunt watches for one.
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "idle,unknown,working,done,needs_input", "--timeout", "15000")
	var st struct {
		State     string `json:"state"`
		Source    string `json:"source"`
		HarnessID string `json:"harness_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.HarnessID != "claude-code" {
		t.Fatalf("the pane is not attributed to Claude Code: %+v\n%s", st, e.ok("explain-agent-detect", "-s", "work", "-w", "0"))
	}
	if earlier != "" {
		// A tick more: a join to the earlier transcript would read done
		// from it by now.
		time.Sleep(2500 * time.Millisecond)
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		if st.Source == "transcript" {
			t.Fatalf("before any prompt the pane reads a transcript: %+v (the earlier session's)", st)
		}
	}
	prompted := time.Now()
	written := endTurnWritten(t, home, earlier)

	e.typeLine("", "Say hello")
	if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "done", "--timeout", "60000"); r.code != 0 {
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		t.Fatalf("the pane never read done (now %+v):\n%s\nevents: %+v", st, e.ok("capture-pane", "-s", "work"), events.all())
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.State != "done" || st.Source != "transcript" || st.HarnessID != "claude-code" {
		t.Fatalf("after the turn: %+v, want done from transcript", st)
	}
	if screen := e.ok("capture-pane", "-s", "work"); !strings.Contains(screen, answer) {
		t.Fatalf("the answer is not on the screen:\n%s", screen)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if r, err := api.Wait(ctx, func(r standin.Request) bool { return r.Kind == "turn" && strings.Contains(r.UserText, "Say hello") }); err != nil {
		t.Fatalf("the stand-in never got the prompt: %v %+v", err, api.Requests())
	} else if !r.Stream {
		t.Fatalf("the turn was not streamed: %+v", r)
	}

	// How long after the turn's end did the pane read done?
	// Whatever the project directory is called: the only transcripts are
	// this turn's and the earlier one.
	files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	files = slices.DeleteFunc(files, func(f string) bool { return f == earlier })
	if len(files) != 1 {
		t.Fatalf("transcripts: %q", files)
	}
	ended := endTurnAt(t, files[0])
	// The event stream may trail wait-for a little: look again until the
	// done event is there (bounded).
	var doneAt time.Time
	sawWorking := false
	for deadline := time.Now().Add(10 * time.Second); doneAt.IsZero() && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, ev := range events.all() {
			at, _ := time.Parse(time.RFC3339Nano, ev.Time)
			if ev.Source == "transcript" && at.Before(prompted) {
				t.Fatalf("the transcript spoke before the prompt was sent: %+v", ev)
			}
			if ev.State == "working" {
				sawWorking = true
			}
			if ev.State == "done" && ev.Source == "transcript" {
				doneAt = at
				break
			}
		}
	}
	if doneAt.IsZero() {
		t.Fatalf("no done event from the transcript: %+v", events.all())
	}
	lag := doneAt.Sub(ended)
	t.Logf("done from the transcript %v after the end_turn record's timestamp, %v after the record was in the file (working seen first: %v)",
		lag.Round(time.Millisecond), doneAt.Sub(written()).Round(time.Millisecond), sawWorking)
	// Claude Code's own name for the folder's project directory.
	if got, want := filepath.Base(filepath.Dir(files[0])), transcript.ProjectName(work); got != want {
		t.Errorf("Claude Code named the project directory %q, ProjectName says %q", got, want)
	}
	// Generous: the point is that no 10 s search interval nor the 30 s
	// stall window stands between the turn's end and done. Done before
	// the end was written was read from another file.
	if lag > 5*time.Second || lag < -100*time.Millisecond {
		t.Fatalf("done came %v after the turn ended", lag)
	}
	if earlier != "" {
		// What joined it: Claude Code's session file for its process
		// names the new session, whose transcript the pane read.
		sessions, _ := filepath.Glob(filepath.Join(home, ".claude", "sessions", "*.json"))
		var named []string
		for _, f := range sessions {
			var sf struct {
				PID       int    `json:"pid"`
				SessionID string `json:"sessionId"`
				CWD       string `json:"cwd"`
			}
			if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &sf) == nil && sf.CWD == work {
				named = append(named, sf.SessionID)
			}
		}
		if want := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl"); len(named) != 1 || named[0] != want {
			t.Fatalf("session files for %s name %q, want the new session %q", work, named, want)
		}
		t.Logf("the session file names %s; the earlier session's transcript was left alone", named[0])
		clearThenTurn(t, e, events, home, work, named[0])
	}
	e.ok("send-keys", "-s", "work", "ctrl+c")
	e.ok("send-keys", "-s", "work", "ctrl+c")
}

// sessionNamed is the session Claude Code's session file for work names
// now ("" when none, or more than one process runs there).
func sessionNamed(home, work string) string {
	files, _ := filepath.Glob(filepath.Join(home, ".claude", "sessions", "*.json"))
	id := ""
	for _, f := range files {
		var sf struct {
			SessionID string `json:"sessionId"`
			CWD       string `json:"cwd"`
		}
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &sf) == nil && sf.CWD == work {
			if id != "" {
				return ""
			}
			id = sf.SessionID
		}
	}
	return id
}

// clearThenTurn runs /clear, which starts a new session in the same
// process (the session file names it at once, its transcript opens with
// the command's records), then one more turn: the pane must follow the
// session to the new transcript, read nothing from the /clear records, and
// end the turn done from the new file.
func clearThenTurn(t *testing.T, e *env, events *stateEvents, home, work, first string) {
	t.Helper()
	cleared := time.Now()
	e.typeLine("", "/clear")
	second := ""
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if id := sessionNamed(home, work); id != "" && id != first {
			second = id
			break
		}
	}
	if second == "" {
		t.Fatalf("after /clear the session file still names %q:\n%s", first, e.ok("capture-pane", "-s", "work"))
	}
	dir := filepath.Join(home, ".claude", "projects", strings.ReplaceAll(work, "/", "-"))
	file := filepath.Join(dir, second+".jsonl")
	// The pane names the session /clear began, as the session file does
	// (no hook said it), and its transcript, with /clear's records, is
	// written.
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var st struct {
			SessionID string `json:"agent_session_id"`
		}
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		_, err := os.Stat(file)
		if st.SessionID == second && err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after /clear (session %s) the pane names %q; its transcript: %v", second, st.SessionID, err)
		}
	}
	// So the conversation can be resumed, hooks or none.
	if got := strings.TrimSpace(e.ok("resume-agent", "-s", "work", "-w", "0", "--dry-run")); !strings.HasSuffix(got, "--resume "+second) {
		t.Fatalf("resume-agent --dry-run: %q, want claude --resume %s", got, second)
	}
	prompted := time.Now()
	e.typeLine("", "Say hello again")

	var doneAt time.Time
	for deadline := time.Now().Add(60 * time.Second); doneAt.IsZero() && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, ev := range events.all() {
			at, _ := time.Parse(time.RFC3339Nano, ev.Time)
			if ev.Source == "transcript" && at.After(cleared) && at.Before(prompted) {
				t.Fatalf("/clear's own records were read as a turn: %+v", ev)
			}
			if ev.State == "done" && ev.Source == "transcript" && at.After(prompted) {
				doneAt = at
				break
			}
		}
	}
	if doneAt.IsZero() {
		var st struct{ State, Source string }
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		t.Fatalf("after /clear the next turn never read done from a transcript (now %+v):\n%s\nevents: %+v", st, e.ok("capture-pane", "-s", "work"), events.all())
	}
	lag := doneAt.Sub(endTurnAt(t, file))
	t.Logf("after /clear (session %s), done from the new transcript %v after its end_turn", second, lag.Round(time.Millisecond))
	if lag > 5*time.Second || lag < -100*time.Millisecond {
		t.Fatalf("done came %v after the new session's turn ended", lag)
	}
}

// endTurnWritten watches (every 5 ms) the transcripts under home's
// projects, but skip, for the first end_turn record, and returns a
// function that gives the time it was first seen in a file (zero when
// never) and stops the watch.
func endTurnWritten(t *testing.T, home, skip string) func() time.Time {
	var mu sync.Mutex
	var at time.Time
	stop := pollEvery(5*time.Millisecond, func() bool {
		files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
		for _, f := range files {
			if f == skip {
				continue
			}
			if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(`"stop_reason":"end_turn"`)) {
				mu.Lock()
				at = time.Now()
				mu.Unlock()
				return true
			}
		}
		return false
	})
	get := func() time.Time {
		stop()
		mu.Lock()
		defer mu.Unlock()
		return at
	}
	t.Cleanup(func() { get() })
	return get
}

// pollEvery calls look every d, on a goroutine of its own, until look
// returns true or stop is called; stop waits for the goroutine to end, and
// may be called again.
func pollEvery(d time.Duration, look func() bool) (stop func()) {
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			if look() {
				return
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(quit); <-done }) }
}
