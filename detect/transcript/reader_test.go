package transcript_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect/transcript"
)

const secret = "hunter2-SECRET-do-not-leak"

func line(typ, stop string, sidechain bool) string {
	return fmt.Sprintf(`{"type":%q,"sessionId":"s-1","cwd":"/home/u/proj","version":"2.1.222","timestamp":"2026-11-30T10:00:00Z","isSidechain":%v,"message":{"role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":%q},"toolUseResult":{"stdout":%q}}`+"\n",
		typ, sidechain, "the password is "+secret, stop, secret)
}

func write(t *testing.T, path, s string, appendTo bool) {
	t.Helper()
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// The newest turn-bearing record decides.
func TestTurnFromNewestRecord(t *testing.T) {
	cases := []struct {
		name  string
		lines string
		want  transcript.Turn
		ok    bool
	}{
		{"start", line("user", "", false), transcript.TurnWorking, true},
		{"tool use", line("user", "", false) + line("assistant", "tool_use", false), transcript.TurnWorking, true},
		{"streaming", line("assistant", "", false), transcript.TurnWorking, true},
		{"end turn", line("user", "", false) + line("assistant", "end_turn", false), transcript.TurnDone, true},
		{"end then title", line("assistant", "end_turn", false) + `{"type":"summary","summary":"x"}` + "\n", transcript.TurnDone, true},
		{"only noise", `{"type":"summary"}` + "\n" + `{"type":"file-history-snapshot"}` + "\n", transcript.TurnNone, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			write(t, p, c.lines, false)
			obs, ok, err := transcript.NewReader(p).Read()
			if err != nil || ok != c.ok || obs.Turn != c.want {
				t.Fatalf("got %v %v %v, want %v %v", obs.Turn, ok, err, c.want, c.ok)
			}
			if ok && (obs.SessionID != "s-1" || obs.CWD != "/home/u/proj" || obs.Version != "2.1.222") {
				t.Fatalf("identity %+v", obs)
			}
		})
	}
}

func TestSidechainNeverEndsTheTurn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	write(t, p, line("assistant", "tool_use", false)+line("assistant", "end_turn", true), false)
	obs, ok, _ := transcript.NewReader(p).Read()
	if !ok || obs.Turn != transcript.TurnWorking {
		t.Fatalf("a subagent's end_turn ended the pane's turn: %v", obs.Turn)
	}
}

// Later reads resume at the last complete line and see only what was
// appended; a half-written line waits for the next read.
func TestIncrementalReads(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	r := transcript.NewReader(p)
	if _, _, err := r.Read(); !errors.Is(err, fs.ErrNotExist) || r.Missing() != 1 {
		t.Fatalf("missing file: %v (missing %d)", err, r.Missing())
	}
	write(t, p, line("user", "", false), false)
	if obs, ok, err := r.Read(); err != nil || !ok || obs.Turn != transcript.TurnWorking || r.Missing() != 0 {
		t.Fatalf("first read %v %v %v", obs, ok, err)
	}
	if _, ok, err := r.Read(); ok || err != nil {
		t.Fatal("a read with nothing appended must answer nothing")
	}
	// A half-written line is not read until its newline arrives.
	full := line("assistant", "end_turn", false)
	write(t, p, full[:40], true)
	if _, ok, _ := r.Read(); ok {
		t.Fatal("a half line was read")
	}
	off := r.Offset()
	write(t, p, full[40:], true)
	if obs, ok, _ := r.Read(); !ok || obs.Turn != transcript.TurnDone || r.Offset() <= off {
		t.Fatalf("completed line: %v %v", obs.Turn, ok)
	}
	// Noise only: no answer.
	write(t, p, `{"type":"summary"}`+"\n", true)
	if _, ok, _ := r.Read(); ok {
		t.Fatal("noise answered")
	}
	// Malformed lines are skipped and counted.
	write(t, p, "{not json "+secret+"\n"+line("user", "", false), true)
	if obs, ok, _ := r.Read(); !ok || obs.Turn != transcript.TurnWorking || r.Malformed() != 0 {
		// The newest line decided first; the malformed one was never reached.
		t.Fatalf("%v %v malformed %d", obs.Turn, ok, r.Malformed())
	}
	write(t, p, line("user", "", false)+"{broken "+secret+"\n", true)
	if _, ok, _ := r.Read(); !ok || r.Malformed() != 1 {
		t.Fatalf("malformed %d", r.Malformed())
	}
	// Truncation restarts from 0.
	write(t, p, line("assistant", "end_turn", false), false)
	if obs, ok, _ := r.Read(); !ok || obs.Turn != transcript.TurnDone {
		t.Fatal("a truncated file was not re-read from the start")
	}
	// Deletion: not-exist, counted.
	os.Remove(p)
	for i := 1; i <= 3; i++ {
		if _, _, err := r.Read(); !errors.Is(err, fs.ErrNotExist) || r.Missing() != i {
			t.Fatalf("read %d after delete: %v missing %d", i, err, r.Missing())
		}
	}
}

func TestRotationIsReadFromTheStart(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	write(t, p, strings.Repeat(line("user", "", false), 20), false)
	r := transcript.NewReader(p)
	r.Read()
	q := filepath.Join(dir, "new.jsonl")
	write(t, q, line("assistant", "end_turn", false), false)
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if obs, ok, _ := r.Read(); !ok || obs.Turn != transcript.TurnDone {
		t.Fatalf("after rotation: %v %v", obs.Turn, ok)
	}
}

func TestAColdReadOfAHugeFileReadsOnlyTheTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	f, _ := os.Create(p)
	l := line("user", "", false)
	for n := 0; n < 3*transcript.TailWindow; n += len(l) {
		f.WriteString(l)
	}
	f.WriteString(line("assistant", "end_turn", false))
	st, _ := f.Stat()
	f.Close()
	r := transcript.NewReader(p)
	obs, ok, _ := r.Read()
	if !ok || obs.Turn != transcript.TurnDone || r.Offset() != st.Size() {
		t.Fatalf("%v %v offset %d size %d", obs.Turn, ok, r.Offset(), st.Size())
	}
}

// The record type has exactly the pinned fields, and the package holds no
// type that could carry conversation text.
func TestThePackageCannotHoldConversationText(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for i, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "//") {
				continue
			}
			for _, banned := range []string{"map[string]any", "map[string]interface{}", "json.RawMessage", "interface{}", "log."} {
				if strings.Contains(l, banned) {
					t.Errorf("%s:%d uses %s", f, i+1, banned)
				}
			}
		}
	}
}

// Privacy: a secret in message content never appears in anything returned,
// in any error, or in the reader's memory after a read.
func TestASecretNeverLeaves(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	write(t, p, line("user", "", false)+"{bad "+secret+"\n"+line("assistant", "end_turn", false), false)
	r := transcript.NewReader(p)
	obs, _, err := r.Read()
	if strings.Contains(fmt.Sprintf("%#v %v", obs, err), secret) {
		t.Fatal("the secret leaked into the result")
	}
	if dump := fmt.Sprintf("%#v", *r); strings.Contains(dump, "hunter2") {
		t.Fatal("the reader holds conversation text after a read")
	}
	os.Remove(p)
	_, _, err = r.Read()
	if strings.Contains(err.Error(), p) || strings.Contains(err.Error(), secret) {
		t.Fatalf("error %q names the path or content", err)
	}
}

func TestSearchVerifiesAndRefusesTwo(t *testing.T) {
	home := t.TempDir()
	dir, ok := transcript.ProjectDir("{home}/.claude/projects/{cwd:dashes}", home, "/tmp/claude-1000/-home-u/work")
	if !ok || filepath.Base(dir) != "-tmp-claude-1000--home-u-work" {
		t.Fatalf("project dir %q", dir)
	}
	if _, ok := transcript.ProjectDir("{home}/x", "", "/a"); ok {
		t.Fatal("an unknown home must give no location")
	}
	os.MkdirAll(dir, 0o700)
	write(t, filepath.Join(dir, "a.jsonl"), line("user", "", false), false)
	write(t, filepath.Join(dir, "b.jsonl"), strings.Replace(line("user", "", false), "/home/u/proj", "/elsewhere", 1), false)
	write(t, filepath.Join(dir, "c.jsonl"), `{"type":"summary"}`+"\n", false)
	opt := transcript.SearchOptions{Dir: dir, Glob: "*.jsonl", Verify: []string{"cwd", "version"}, CWD: "/home/u/proj", Version: "2.1.222"}
	got, err := transcript.Search(opt)
	if err != nil || filepath.Base(got) != "a.jsonl" {
		t.Fatalf("search: %q %v", got, err)
	}
	write(t, filepath.Join(dir, "d.jsonl"), line("assistant", "end_turn", false), false)
	var te *transcript.Error
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeAmbiguous {
		t.Fatalf("two candidates: %v", err)
	}
	opt.Version = "" // no version read from the install: nothing verifies
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeNoCandidate {
		t.Fatalf("unverifiable version: %v", err)
	}
	// The install's versions (its exe's name, its package.json): one match
	// verifies; the two candidates still refuse.
	opt.Versions = []string{"claude.exe", "2.1.222"}
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeAmbiguous {
		t.Fatalf("two candidates by Versions: %v", err)
	}
	os.Remove(filepath.Join(dir, "d.jsonl"))
	if got, err := transcript.Search(opt); err != nil || filepath.Base(got) != "a.jsonl" {
		t.Fatalf("search by Versions: %q %v", got, err)
	}
	opt.Versions = []string{"claude.exe", "2.1.221", ""}
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeNoCandidate {
		t.Fatalf("another version verified: %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(line("user", "", false)), []byte(line("assistant", "end_turn", true)))
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"stop_reason\":\"end_turn\"}}\n"), []byte("{\n\n}"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		os.WriteFile(p, a, 0o600)
		r := transcript.NewReader(p)
		r.Read()
		fh, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		fh.Write(b)
		fh.Close()
		obs, ok, _ := r.Read()
		if !ok && obs.Turn != transcript.TurnNone {
			t.Fatal("a turn without ok")
		}
		if r.Offset() > int64(len(a)+len(b)) {
			t.Fatal("offset past the end")
		}
	})
}

// The first look covers only the end of the file; a turn-bearing record
// further back, or longer than that look, is still found.
func TestTheReadWidensPastLongLines(t *testing.T) {
	long := strings.Repeat("x", 40<<10)
	noise := `{"type":"summary","summary":"` + long + `"}` + "\n"
	longTurn := `{"type":"assistant","message":{"content":"` + long + `","stop_reason":"end_turn"}}` + "\n"
	for name, c := range map[string]struct {
		content string
		want    transcript.Turn
	}{
		"turn behind a long noise line": {line("assistant", "end_turn", false) + noise, transcript.TurnDone},
		"a long turn line":              {line("user", "", false) + longTurn, transcript.TurnDone},
		"a long turn behind noise":      {line("user", "", false) + longTurn + noise + noise, transcript.TurnDone},
		"all noise":                     {noise + noise + noise, transcript.TurnNone},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			write(t, p, c.content, false)
			r := transcript.NewReader(p)
			obs, ok, err := r.Read()
			if err != nil || obs.Turn != c.want || ok != (c.want != transcript.TurnNone) || r.Offset() != int64(len(c.content)) || r.Malformed() != 0 {
				t.Fatalf("%v %v %v offset %d/%d malformed %d", obs.Turn, ok, err, r.Offset(), len(c.content), r.Malformed())
			}
		})
	}
}
