package detect_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
)

// The hookless join by the agent's session file. Claude Code (2.1.197)
// keeps ~/.claude/sessions/<pid>.json for each running process, naming
// the session it is in; the bundled claude-code manifest names that file
// (session_file), and the pretend agent stands in for the process.

// sessionRig is a tracker with a watcher on a fake clock, a home and a
// working directory, and the pane's project directory made.
type sessionRig struct {
	*rig
	w         *transcript.Watcher
	home      string
	work      string
	dir       string // the project directory
	sessions  string // ~/.claude/sessions
	pid       int    // the pretend agent's, once started
	procStart string // its start time, as Claude Code writes it
}

func newSessionRig(t *testing.T) *sessionRig {
	t.Helper()
	r, w, home, work := newTranscriptRig(t)
	s := &sessionRig{rig: r, w: w, home: home, work: work,
		dir:      filepath.Join(home, ".claude", "projects", transcript.ProjectName(work)),
		sessions: filepath.Join(home, ".claude", "sessions")}
	os.MkdirAll(s.dir, 0o700)
	os.MkdirAll(s.sessions, 0o700)
	return s
}

// start runs the pretend agent (named claude, so its version is "claude")
// in work and finds its pid and start time, before any detection tick.
func (s *sessionRig) start() {
	s.t.Helper()
	s.typeLine("cd " + s.work + " && claude -as '' -silence -steps 1 -step 10ms")
	s.waitScreen("never answers")
	s.pid = childNamed(s.t, s.proc.Pid(), "claude")
	s.procStart = procStartOf(s.t, s.pid)
}

// childNamed is the child of pid whose comm is name.
func childNamed(t *testing.T, pid int, name string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
		for _, f := range strings.Fields(string(b)) {
			comm, _ := os.ReadFile("/proc/" + f + "/comm")
			if strings.TrimSpace(string(comm)) == name {
				n, _ := strconv.Atoi(f)
				return n
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Skipf("no child %q of %d found in /proc", name, pid)
	return 0
}

// procStartOf is field 22 of /proc/<pid>/stat, which Claude Code writes
// as procStart.
func procStartOf(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		t.Fatalf("stat %q", s)
	}
	return f[19]
}

// session writes the agent's session file as Claude Code does: in place.
func (s *sessionRig) session(id, cwd string) string {
	s.t.Helper()
	p := filepath.Join(s.sessions, strconv.Itoa(s.pid)+".json")
	body := `{"pid":` + strconv.Itoa(s.pid) + `,"sessionId":"` + id + `","cwd":"` + cwd + `","startedAt":1796167227612,"procStart":"` + s.procStart +
		`","version":"2.1.197","peerProtocol":1,"kind":"interactive","entrypoint":"cli","name":"work-7d","nameSource":"derived","status":"idle"}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// transcript writes (or appends to) the project directory's name.jsonl.
func (s *sessionRig) transcript(name string, recs ...string) string {
	s.t.Helper()
	p := filepath.Join(s.dir, name+".jsonl")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	f.WriteString(strings.Join(recs, ""))
	f.Close()
	return p
}

func (s *sessionRig) rec(id, typ, stop string) string {
	return `{"type":"` + typ + `","sessionId":"` + id + `","cwd":"` + s.work + `","version":"claude","message":{"content":"secret","stop_reason":"` + stop + `"}}` + "\n"
}

// others writes n transcripts that verify as well as the session's (same
// cwd, same version), each ending in a prompt: a join to any of them
// reads working.
func (s *sessionRig) others(n int) {
	for i := 0; i < n; i++ {
		id := "0ther-" + strconv.Itoa(i)
		s.transcript(id, s.rec(id, "user", ""), s.rec(id, "assistant", "end_turn"), s.rec(id, "user", ""))
	}
}

// tick runs one detection tick, failing if it does not return: no read
// of a session file may block it.
func (s *sessionRig) tick() {
	s.t.Helper()
	done := make(chan struct{})
	go func() {
		s.clock.Advance(detect.DefaultDetectInterval)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.t.Fatal("a detection tick did not return")
	}
}

// settle lets the watcher's debounce fire after a change it saw.
func (s *sessionRig) settle(base int) {
	s.t.Helper()
	waitArmed(s.t, s.clock, base)
	s.clock.Advance(transcript.Debounce)
}

// reach advances the watcher's debounce until the pane reads st from
// src. A write into a file the pane has just joined is seen by the
// join's first read or by its watch, whichever comes after the write;
// waiting for the watch's event alone would miss the first.
func (s *sessionRig) reach(st agentstate.State, src string) agentstate.Snapshot {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if got := s.state(); got.State == st && got.SourceName() == src {
			return got
		}
		if time.Now().After(deadline) {
			return s.want(st, src)
		}
		s.clock.Advance(transcript.Debounce)
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *sessionRig) notJoined(why string) {
	s.t.Helper()
	if got := s.state(); got.SourceName() == "transcript" {
		s.t.Fatalf("%s: the pane reads its transcript (%s): %+v", why, got.State, got)
	}
}

// The agent's session file joins the pane to that session's transcript
// although three others in the directory verify as well (a search would
// refuse them all), and the join follows the session: /clear (a new id)
// moves it to the new session's file, /resume (an old id) back.
func TestASessionFileJoinsItsTranscriptAmongOthersThatVerify(t *testing.T) {
	s := newSessionRig(t)
	s.others(3)
	const first, second = "5f0c1e2d-0001-4000-8000-000000000001", "5f0c1e2d-0002-4000-8000-000000000002"
	s.transcript(first, s.rec(first, "user", ""), s.rec(first, "assistant", "end_turn"))
	s.start()
	s.session(first, s.work)
	s.tick()
	if got := s.want(agentstate.Done, "transcript"); got.SessionID != first {
		t.Fatalf("the pane names session %q, want the session file's %q", got.SessionID, first)
	}
	if s.w.Dirs() != 2 {
		t.Fatalf("%d directories watched, want 2 (the transcript's and the session file's)", s.w.Dirs())
	}

	// /clear: a new session, whose transcript opens with a prompt.
	s.transcript(second, s.rec(second, "user", ""))
	s.session(second, s.work)
	if got := s.reach(agentstate.Working, "transcript"); got.SessionID != second {
		t.Fatalf("after /clear the pane names session %q, want %q", got.SessionID, second)
	}
	// It is that file the pane follows now: its end reads done.
	s.transcript(second, s.rec(second, "assistant", "end_turn"))
	s.reach(agentstate.Done, "transcript")

	// /resume of the first session, which goes on with a prompt.
	base := s.clock.Pending()
	s.session(first, s.work)
	s.settle(base)
	s.transcript(first, s.rec(first, "user", ""))
	s.reach(agentstate.Working, "transcript")

	s.tr.Detach("w")
	if s.w.Dirs() != 0 {
		t.Fatalf("%d directories watched after Detach", s.w.Dirs())
	}
}

// A session whose transcript is not written yet (Claude Code writes it
// when the first prompt is submitted) is waited for: the one older
// transcript that verifies, which a search would take, is not joined, and
// the session's file is joined when it appears.
func TestASessionsTranscriptIsWaitedFor(t *testing.T) {
	s := newSessionRig(t)
	const old, id = "01d00000-0000-4000-8000-000000000000", "5f0c1e2d-0003-4000-8000-000000000003"
	s.transcript(old, s.rec(old, "user", ""), s.rec(old, "assistant", "end_turn"))
	s.start()
	s.session(id, s.work)
	s.tick()
	s.notJoined("an older session's transcript")

	s.transcript(id, s.rec(id, "user", ""))
	s.reach(agentstate.Working, "transcript")
	s.transcript(id, s.rec(id, "assistant", "end_turn"))
	s.reach(agentstate.Done, "transcript")
}

// A searched join, made before the agent's session file could be read,
// gives way to it: the session file names another transcript, so the
// searched one's claim is yielded and the session's file is joined when
// it appears.
func TestASessionFileReplacesASearchedJoin(t *testing.T) {
	s := newSessionRig(t)
	const old, id = "01d00000-0000-4000-8000-000000000000", "5f0c1e2d-0004-4000-8000-000000000004"
	s.transcript(old, s.rec(old, "user", ""), s.rec(old, "assistant", "end_turn"))
	s.start()
	writtenNow(t, filepath.Join(s.dir, old+".jsonl")) // written since the agent started
	s.clock.Advance(detect.SessionFileWait)           // no session file came
	s.tick()
	s.want(agentstate.Done, "transcript") // the one file that verifies
	s.session(id, s.work)
	s.clock.Advance(10 * time.Second) // the joined pane reads an unwatched session file every joinRetry
	s.notJoined("the session file names another transcript")
	s.transcript(id, s.rec(id, "user", ""))
	s.reach(agentstate.Working, "transcript")
}

// A hook's transcript_path wins over the session file: the session join
// ends, the session file is no longer watched, and a new session in it
// moves nothing: the pane goes on reading the hook's file.
func TestAHookPathWinsOverTheSessionFileJoin(t *testing.T) {
	s := newSessionRig(t)
	const id, next = "5f0c1e2d-0005-4000-8000-000000000005", "5f0c1e2d-0006-4000-8000-000000000006"
	s.transcript(id, s.rec(id, "user", ""), s.rec(id, "assistant", "end_turn"))
	s.start()
	s.session(id, s.work)
	s.tick()
	s.want(agentstate.Done, "transcript")

	exact := filepath.Join(t.TempDir(), "exact.jsonl")
	os.WriteFile(exact, []byte(s.rec("x", "user", "")), 0o600)
	s.pane.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"}, exact)
	if s.w.Dirs() != 1 {
		t.Fatalf("%d directories watched, want 1 (the exact file's)", s.w.Dirs())
	}
	// The hook goes quiet: what the pane shows is its transcript's.
	s.tr.Arbiter().Yield("w", agentstate.SourceReport)
	appendTo := func(path, rec string) {
		base := s.clock.Pending()
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(rec)
		f.Close()
		s.settle(base)
	}
	appendTo(exact, s.rec("x", "assistant", ""))
	s.want(agentstate.Working, "transcript")

	// A new session in the session file (its transcript done) moves
	// nothing.
	s.transcript(next, s.rec(next, "user", ""), s.rec(next, "assistant", "end_turn"))
	s.session(next, s.work)
	s.clock.Advance(30 * time.Second)
	s.want(agentstate.Working, "transcript")
	if s.w.Dirs() != 1 {
		t.Fatalf("%d directories watched after the session changed", s.w.Dirs())
	}
	appendTo(exact, s.rec("x", "assistant", "end_turn"))
	s.want(agentstate.Done, "transcript")
}

// A session file that cannot be trusted is ignored, and reading it never
// blocks: with two other transcripts that verify the search refuses to
// guess, so the pane stays unjoined although the file names a transcript
// that exists. Nothing ignored is watched.
func TestASessionFileJoinIgnoresAFileItCannotTrust(t *testing.T) {
	const id = "5f0c1e2d-0007-4000-8000-000000000007"
	for _, c := range []struct {
		name  string
		write func(s *sessionRig, path string)
	}{
		{"malformed", func(s *sessionRig, path string) {
			os.WriteFile(path, []byte(`{"pid":`+strconv.Itoa(s.pid)+`,"sessionId":"`+id+`","cwd":"`+s.work), 0o644)
		}},
		{"huge", func(s *sessionRig, path string) {
			body := `{"pid":` + strconv.Itoa(s.pid) + `,"sessionId":"` + id + `","cwd":"` + s.work + `","pad":"` + strings.Repeat("x", transcript.SessionMax) + `"}`
			os.WriteFile(path, []byte(body), 0o644)
		}},
		{"a FIFO", func(s *sessionRig, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}},
		{"a directory", func(s *sessionRig, path string) { os.Mkdir(path, 0o700) }},
		{"written by another pid", func(s *sessionRig, path string) {
			os.WriteFile(path, []byte(`{"pid":1,"sessionId":"`+id+`","cwd":"`+s.work+`"}`), 0o644)
		}},
		{"left by a process that had the pid before", func(s *sessionRig, path string) {
			s.procStart = "1"
			s.session(id, s.work)
		}},
		{"naming a file outside the project directory", func(s *sessionRig, path string) {
			s.session("../"+filepath.Base(s.dir)+"/"+id, s.work)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSessionRig(t)
			s.others(2)
			s.transcript(id, s.rec(id, "user", ""), s.rec(id, "assistant", "end_turn"))
			s.start()
			c.write(s, filepath.Join(s.sessions, strconv.Itoa(s.pid)+".json"))
			s.tick()
			s.clock.Advance(10 * time.Second) // and a later search
			s.notJoined("an untrusted session file")
			if s.w.Dirs() != 1 {
				t.Fatalf("%d directories watched, want 1 (the hunt's)", s.w.Dirs())
			}
		})
	}
}

// The session file names the session; its transcript is found by that id
// wherever Claude Code put it, so the join does not depend on how the
// folder's project directory is named. Here the session's transcript is
// in a project directory the pane's folder does not name (two in the
// pane's own verify as well): it is joined at once; and a session whose
// transcript appears later in such a directory is joined when Claude Code
// next rewrites its session file (it does on every status change).
func TestASessionFileJoinsByItsIDWhateverTheFolderIsCalled(t *testing.T) {
	const id, next = "5f0c1e2d-0008-4000-8000-000000000008", "5f0c1e2d-0009-4000-8000-000000000009"
	s := newSessionRig(t)
	s.others(2)
	elsewhere := filepath.Join(s.home, ".claude", "projects", "-named-otherwise-7abc")
	os.MkdirAll(elsewhere, 0o700)
	write := func(name string, recs ...string) {
		f, err := os.OpenFile(filepath.Join(elsewhere, name+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Join(recs, ""))
		f.Close()
	}
	write(id, s.rec(id, "user", ""), s.rec(id, "assistant", "end_turn"))
	s.start()
	s.session(id, "/a/folder/named.otherwise")
	s.tick()
	s.want(agentstate.Done, "transcript")

	// /clear: a session whose transcript is not written yet, then is,
	// elsewhere again.
	base := s.clock.Pending()
	s.session(next, "/a/folder/named.otherwise")
	s.settle(base)
	write(next, s.rec(next, "user", ""))
	s.session(next, "/a/folder/named.otherwise") // busy
	s.reach(agentstate.Working, "transcript")
}

// The pane sees the agent within milliseconds of its start, before Claude
// Code has written its session file. The hunt waits for that file
// (watching for it) rather than search: an earlier session's transcript,
// which verifies as well as the new one will, is not joined meanwhile,
// and the session file, once written, decides.
func TestAHuntWaitsForTheSessionFileBeforeItSearches(t *testing.T) {
	s := newSessionRig(t)
	const old, id = "01d00000-0000-4000-8000-00000000000a", "5f0c1e2d-000a-4000-8000-00000000000a"
	s.transcript(old, s.rec(old, "user", ""), s.rec(old, "assistant", "end_turn"))
	s.start()
	s.tick() // 2 s: the agent is young, and no session file yet
	s.notJoined("before the session file came, an earlier session's transcript")
	base := s.clock.Pending()
	s.session(id, s.work) // Claude Code has started
	s.settle(base)
	s.notJoined("the session's transcript is not written yet")
	s.transcript(id, s.rec(id, "user", ""))
	s.reach(agentstate.Working, "transcript")
}
