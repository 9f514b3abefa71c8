package transcript_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/detect/transcript"
)

// sessionJSON is a session file as Claude Code 2.1.197 writes it
// (~/.claude/sessions/<pid>.json), fields in its order.
func sessionJSON(pid, id, cwd, procStart string) string {
	return `{"pid":` + pid + `,"sessionId":"` + id + `","cwd":"` + cwd + `","startedAt":1796167227612,"procStart":"` + procStart +
		`","version":"2.1.197","peerProtocol":1,"kind":"interactive","entrypoint":"cli","name":"work-7d","nameSource":"derived","status":"idle","updatedAt":1796167227370,"statusUpdatedAt":1796167227370}`
}

func TestReadSessionNamesTheTranscript(t *testing.T) {
	dir := t.TempDir()
	const id = "b3413dfb-0f44-4f53-8c3f-73457f984d38"
	path := filepath.Join(dir, "1763.json")
	write(t, path, sessionJSON("1763", id, "/tmp/exp/work", "155260"), false)
	s, err := transcript.ReadSession(path)
	if err != nil || s.PID != 1763 || s.ID != id || s.CWD != "/tmp/exp/work" || s.ProcStart != "155260" {
		t.Fatalf("ReadSession = %+v, %v", s, err)
	}
	tp, ok := s.TranscriptPath("/h/.claude/projects/-tmp-exp-work/", "*.jsonl")
	if !ok || tp != "/h/.claude/projects/-tmp-exp-work/"+id+".jsonl" {
		t.Fatalf("TranscriptPath = %q %v", tp, ok)
	}
	if _, ok := s.TranscriptPath("/h/p", "*.json"); ok {
		t.Fatal("a transcript name the manifest's glob refuses was accepted")
	}
	if p, ok := transcript.SessionPath("{home}/.claude/sessions/{pid}.json", "/h", 42); !ok || p != "/h/.claude/sessions/42.json" {
		t.Fatalf("SessionPath = %q %v", p, ok)
	}
	for _, c := range []struct {
		home string
		pid  int
	}{{"", 42}, {"/h", 0}, {"/h", -1}} {
		if p, ok := transcript.SessionPath("{home}/s/{pid}.json", c.home, c.pid); ok {
			t.Errorf("SessionPath(%q, %d) = %q", c.home, c.pid, p)
		}
	}
}

// A session file is refused, never read past its bound, never waited on,
// and never lets its session id name a file outside the project
// directory. No error quotes it.
func TestReadSessionRefusesBeforeAnyJoin(t *testing.T) {
	dir := t.TempDir()
	big := sessionJSON("7", "abc", "/w", "1")
	big = big[:len(big)-1] + `,"pad":"` + strings.Repeat("x", transcript.SessionMax) + `"}`
	cases := []struct {
		name string
		body string
		code transcript.Code
	}{
		{"truncated", sessionJSON("7", "abc", "/w", "1")[:40], transcript.CodeMalformed},
		{"empty", "", transcript.CodeMalformed},
		{"not an object", `["pid",7]`, transcript.CodeMalformed},
		{"no session", `{"pid":7,"cwd":"/w"}`, transcript.CodeMalformed},
		{"no pid", `{"sessionId":"abc","cwd":"/w"}`, transcript.CodeMalformed},
		{"no cwd", `{"pid":7,"sessionId":"abc"}`, transcript.CodeMalformed},
		{"escaping id", sessionJSON("7", "../../../etc/passwd", "/w", "1"), transcript.CodeMalformed},
		{"slash in id", sessionJSON("7", "a/b", "/w", "1"), transcript.CodeMalformed},
		{"dot id", sessionJSON("7", "..", "/w", "1"), transcript.CodeMalformed},
		{"long id", sessionJSON("7", strings.Repeat("a", 129), "/w", "1"), transcript.CodeMalformed},
		{"pid a string", `{"pid":"7","sessionId":"abc","cwd":"/w"}`, transcript.CodeMalformed},
		{"huge", big, transcript.CodeTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			write(t, p, c.body, false)
			s, err := transcript.ReadSession(p)
			var e *transcript.Error
			if !errors.As(err, &e) || e.Code() != c.code {
				t.Fatalf("ReadSession = %+v, %v; want code %s", s, err, c.code)
			}
			if strings.Contains(err.Error(), "abc") || strings.Contains(err.Error(), "/w") {
				t.Fatalf("the error quotes the file: %v", err)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, err := transcript.ReadSession(filepath.Join(dir, "none.json"))
		var e *transcript.Error
		if !errors.As(err, &e) || e.Code() != transcript.CodeNotExist || !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("ReadSession of a missing file: %v", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		d := filepath.Join(dir, "d.json")
		os.Mkdir(d, 0o700)
		_, err := transcript.ReadSession(d)
		var e *transcript.Error
		if !errors.As(err, &e) || e.Code() != transcript.CodeNotRegular {
			t.Fatalf("ReadSession of a directory: %v", err)
		}
	})
	t.Run("FIFO", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo.json")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := transcript.ReadSession(fifo)
			done <- err
		}()
		select {
		case err := <-done:
			var e *transcript.Error
			if !errors.As(err, &e) || e.Code() != transcript.CodeNotRegular {
				t.Fatalf("ReadSession of a FIFO: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("ReadSession blocked on a FIFO")
		}
	})
}

// The records of a local command, in the shapes Claude Code 2.1.197
// writes them: /clear opens the new session's transcript with an isMeta
// caveat, the command as a user record, and a system record of subtype
// local_command whose parent is the command; /model (mid-session) writes
// only system records.
const (
	clearCaveat  = `{"parentUuid":null,"isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"<local-command-caveat>Caveat: hunter2</local-command-caveat>"},"isMeta":true,"uuid":"u-caveat","timestamp":"2026-12-01T23:20:52.464Z","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	clearCommand = `{"parentUuid":"u-caveat","isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"},"uuid":"u-clear","timestamp":"2026-12-01T23:20:52.459Z","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	clearStdout  = `{"parentUuid":"u-clear","isSidechain":false,"type":"system","subtype":"local_command","content":"<local-command-stdout></local-command-stdout>","level":"info","uuid":"u-out","isMeta":false,"cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	modelCommand = `{"parentUuid":"u-dur","isSidechain":false,"type":"system","subtype":"local_command","content":"<command-name>/model</command-name>","uuid":"u-model","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	modelStdout  = `{"parentUuid":"u-model","isSidechain":false,"type":"system","subtype":"local_command","content":"<local-command-stdout>Kept model</local-command-stdout>","uuid":"u-model-out","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	prompt       = `{"parentUuid":"u-out","isSidechain":false,"type":"user","message":{"role":"user","content":"Say hello"},"uuid":"u-prompt","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	endTurn      = `{"parentUuid":"u-prompt","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}],"stop_reason":"end_turn"},"uuid":"u-end","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
	turnDuration = `{"parentUuid":"u-end","isSidechain":false,"type":"system","subtype":"turn_duration","uuid":"u-dur","cwd":"/w","sessionId":"s2","version":"2.1.197"}` + "\n"
)

// A local command is not a turn: the transcript /clear opens reads as
// nothing (the pane keeps what it believed, not working), the prompt after
// it reads working, and /model after a finished turn leaves it done.
func TestALocalCommandIsNotATurnInTheTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s2.jsonl")
	write(t, path, `{"type":"mode","mode":"normal","sessionId":"s2"}`+"\n"+clearCaveat+clearCommand+clearStdout, false)
	r := transcript.NewReader(path)
	if obs, ok, err := r.Read(); ok || err != nil {
		t.Fatalf("the transcript /clear opens read %+v %v %v, want nothing", obs, ok, err)
	}
	write(t, path, prompt, true)
	if obs, ok, err := r.Read(); !ok || err != nil || obs.Turn != transcript.TurnWorking {
		t.Fatalf("the prompt after /clear read %+v %v %v", obs, ok, err)
	}
	write(t, path, endTurn+turnDuration+modelCommand+modelStdout, true)
	if obs, ok, err := r.Read(); !ok || err != nil || obs.Turn != transcript.TurnDone {
		t.Fatalf("a turn then /model read %+v %v %v, want done", obs, ok, err)
	}
	// Cold: the whole file, newest first.
	if obs, ok, err := transcript.NewReader(path).Read(); !ok || err != nil || obs.Turn != transcript.TurnDone {
		t.Fatalf("cold read %+v %v %v, want done", obs, ok, err)
	}
	// /clear's records alone, cold.
	write(t, path, clearCaveat+clearCommand+clearStdout, false)
	if obs, ok, err := transcript.NewReader(path).Read(); ok || err != nil {
		t.Fatalf("cold read of /clear's records: %+v %v %v", obs, ok, err)
	}
}

// A session's transcript is found by its id alone: in the project
// directory its folder names, else in whichever project directory holds
// it (a name Claude Code gives otherwise, a session resumed from another
// folder); two copies are refused, none is not_exist with the directory
// to watch.
func TestLocateFindsTheTranscriptBySessionID(t *testing.T) {
	home := t.TempDir()
	const pattern = "{home}/.claude/projects/{cwd:dashes}"
	const id = "b3413dfb-0f44-4f53-8c3f-73457f984d38"
	s := transcript.Session{PID: 7, ID: id, CWD: "/src/my_project.v2 é"}
	projects := filepath.Join(home, ".claude", "projects")
	want := filepath.Join(projects, "-src-my-project-v2--")
	var te *transcript.Error
	if _, exp, err := s.Locate(pattern, home, "*.jsonl"); !errors.As(err, &te) || te.Code() != transcript.CodeNotExist || exp != want {
		t.Fatalf("nothing written yet: %q %v", exp, err)
	}
	os.MkdirAll(want, 0o700)
	write(t, filepath.Join(want, id+".jsonl"), line("user", "", false), false)
	if p, _, err := s.Locate(pattern, home, "*.jsonl"); err != nil || p != filepath.Join(want, id+".jsonl") {
		t.Fatalf("in its own project directory: %q %v", p, err)
	}
	os.Remove(filepath.Join(want, id+".jsonl"))
	other := filepath.Join(projects, "-src-my-project-v2-x-somehash")
	os.MkdirAll(other, 0o700)
	write(t, filepath.Join(other, id+".jsonl"), line("user", "", false), false)
	write(t, filepath.Join(projects, id+".jsonl"), line("user", "", false), false) // a file beside the projects is none
	if p, _, err := s.Locate(pattern, home, "*.jsonl"); err != nil || p != filepath.Join(other, id+".jsonl") {
		t.Fatalf("named otherwise: %q %v", p, err)
	}
	third := filepath.Join(projects, "-elsewhere")
	os.MkdirAll(third, 0o700)
	write(t, filepath.Join(third, id+".jsonl"), line("user", "", false), false)
	if _, _, err := s.Locate(pattern, home, "*.jsonl"); !errors.As(err, &te) || te.Code() != transcript.CodeAmbiguous {
		t.Fatalf("two copies: %v", err)
	}
	if _, _, err := s.Locate(pattern, "", "*.jsonl"); !errors.As(err, &te) || te.Code() != transcript.CodeNoLocation {
		t.Fatalf("no home: %v", err)
	}
	// A fixed directory (no {cwd:dashes}) is looked in, and only there.
	if _, exp, err := s.Locate("{home}/fixed", home, "*.jsonl"); !errors.As(err, &te) || te.Code() != transcript.CodeNotExist || exp != filepath.Join(home, "fixed") {
		t.Fatalf("a fixed directory: %q %v", exp, err)
	}
}
