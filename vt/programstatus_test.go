package vt

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"
)

func psB64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func psRawB64(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) }

func TestParseProgramStatus(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want ProgramStatus
		ok   bool
	}{
		{"query", "?", ProgramStatus{Query: true}, true},
		{"working", "state=working", ProgramStatus{State: "working", Progress: -1}, true},
		{"full blocked", "state=blocked:kind=permission:app=deploy:id=deploy/us-east:progress=40:title=" + psB64("Deploy") + ":msg=" + psB64("Approve deploy to production?"),
			ProgramStatus{State: "blocked", Kind: "permission", App: "deploy", ID: "deploy/us-east", Progress: 40, Title: "Deploy", Msg: "Approve deploy to production?"}, true},
		{"padding optional", "state=done:msg=" + psRawB64("ok!!"), ProgramStatus{State: "done", Progress: -1, Msg: "ok!!"}, true},
		{"padding present", "state=done:msg=" + psB64("ok!!"), ProgramStatus{State: "done", Progress: -1, Msg: "ok!!"}, true},
		{"clear all", "state=clear", ProgramStatus{State: "clear", Progress: -1}, true},
		{"clear id", "state=clear:id=a/b", ProgramStatus{State: "clear", ID: "a/b", Progress: -1}, true},
		{"empty id is root", "state=idle:id=", ProgramStatus{State: "idle", Progress: -1}, true},
		{"all states", "state=error", ProgramStatus{State: "error", Progress: -1}, true},
		{"order free, last wins", "app=x:state=idle:state=working:app=y", ProgramStatus{State: "working", App: "y", Progress: -1}, true},
		{"unknown keys ignored", "state=idle:color=red:future=1", ProgramStatus{State: "idle", Progress: -1}, true},
		{"segments without = ignored", "state=idle::junk:", ProgramStatus{State: "idle", Progress: -1}, true},
		{"kind dropped unless blocked", "state=working:kind=permission", ProgramStatus{State: "working", Progress: -1}, true},
		{"unknown kind dropped", "state=blocked:kind=coffee", ProgramStatus{State: "blocked", Progress: -1}, true},
		{"progress out of range dropped", "state=working:progress=101", ProgramStatus{State: "working", Progress: -1}, true},
		{"progress not a number dropped", "state=working:progress=4x", ProgramStatus{State: "working", Progress: -1}, true},
		{"progress negative dropped", "state=working:progress=-1", ProgramStatus{State: "working", Progress: -1}, true},
		{"progress with done dropped", "state=done:progress=50", ProgramStatus{State: "done", Progress: -1}, true},
		{"progress 0 kept", "state=blocked:progress=0", ProgramStatus{State: "blocked", Progress: 0}, true},
		{"progress 100 kept", "state=working:progress=100", ProgramStatus{State: "working", Progress: 100}, true},
		{"bidi stripped", "state=error:msg=" + psB64("\u202eevil\u202c fail "), ProgramStatus{State: "error", Progress: -1, Msg: "evil fail"}, true},
		{"zero width stripped", "state=idle:title=" + psB64("a\u200bb\ufeffc\u2066d"), ProgramStatus{State: "idle", Progress: -1, Title: "abcd"}, true},
		{"app cleaned", "state=idle:app=a\x1bb\u200bc", ProgramStatus{State: "idle", Progress: -1, App: "abc"}, true},
		{"empty title", "state=idle:title=", ProgramStatus{State: "idle", Progress: -1}, true},
		{"utf8 title", "state=idle:title=" + psB64("日本語 ✓"), ProgramStatus{State: "idle", Progress: -1, Title: "日本語 ✓"}, true},
		{"app at limit", "state=idle:app=" + strings.Repeat("a", 32), ProgramStatus{State: "idle", Progress: -1, App: strings.Repeat("a", 32)}, true},
		{"id at limits", "state=idle:id=" + strings.Repeat("a/", 7) + "a", ProgramStatus{State: "idle", Progress: -1, ID: strings.Repeat("a/", 7) + "a"}, true},
		{"key at limit", "state=idle:" + strings.Repeat("k", 16) + "=1", ProgramStatus{State: "idle", Progress: -1}, true},

		// Discarded reports.
		{"empty", "", ProgramStatus{}, false},
		{"no state", "app=x", ProgramStatus{}, false},
		{"unknown state", "state=sleeping", ProgramStatus{}, false},
		{"state case matters", "state=Working", ProgramStatus{}, false},
		{"bad base64", "state=idle:msg=!!!!", ProgramStatus{}, false},
		{"too much padding", "state=idle:msg=QQ===", ProgramStatus{}, false},
		{"misplaced padding", "state=idle:msg=QQ=A", ProgramStatus{}, false},
		{"base64 with newline", "state=idle:msg=QU\nJD", ProgramStatus{}, false},
		{"url alphabet", "state=idle:msg=-_-_", ProgramStatus{}, false},
		{"escape in msg", "state=error:msg=" + psB64("fail\x1b[31m"), ProgramStatus{}, false},
		{"newline in msg", "state=idle:msg=" + psB64("Approve?\n"), ProgramStatus{}, false},
		{"tab in title", "state=idle:title=" + psB64("a\tb"), ProgramStatus{}, false},
		{"C1 in title", "state=idle:title=" + psB64("a\u009bb"), ProgramStatus{}, false},
		{"non utf8 msg", "state=idle:msg=" + psB64("\xff\xfe"), ProgramStatus{}, false},
		{"title too long", "state=idle:title=" + psB64(strings.Repeat("t", 193)), ProgramStatus{}, false},
		{"msg too long", "state=idle:msg=" + psB64(strings.Repeat("m", 2049)), ProgramStatus{}, false},
		{"app too long", "state=idle:app=" + strings.Repeat("a", 33), ProgramStatus{}, false},
		{"key too long", "state=idle:" + strings.Repeat("k", 17) + "=1", ProgramStatus{}, false},
		{"id too deep", "state=idle:id=" + strings.Repeat("a/", 8) + "a", ProgramStatus{}, false},
		{"id level too long", "state=idle:id=" + strings.Repeat("a", 33), ProgramStatus{}, false},
		{"id too long", "state=idle:id=" + strings.Repeat(strings.Repeat("a", 30)+"/", 4) + "abcdefghij", ProgramStatus{}, false},
		{"id empty level", "state=idle:id=a//b", ProgramStatus{}, false},
		{"id leading slash", "state=idle:id=/a", ProgramStatus{}, false},
		{"id control char", "state=idle:id=a\x1bb", ProgramStatus{}, false},
		{"id bidi", "state=idle:id=a\u202eb", ProgramStatus{}, false},
		{"payload too long", "state=idle:x=" + strings.Repeat("x", MaxProgramStatusPayload), ProgramStatus{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseProgramStatus(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ParseProgramStatus(%q)\n got %+v, %v\nwant %+v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
	// Limits measured on the decoded text.
	if ps, ok := ParseProgramStatus("state=idle:title=" + psB64(strings.Repeat("é", 96))); !ok || ps.Title != strings.Repeat("é", 96) {
		t.Errorf("192-byte title refused")
	}
	if _, ok := ParseProgramStatus("state=idle:msg=" + psB64(strings.Repeat("m", 2048))); !ok {
		t.Errorf("2048-byte msg refused")
	}
}

func TestCleanStatusText(t *testing.T) {
	cases := map[string]string{
		"plain":              "plain",
		"  spaced \n":        "spaced",
		"a\x00b\x7fc\u0085d": "abcd",
		"bad\xffutf8":        "badutf8",
		"rtl\u200fmark":      "rtlmark",
		"":                   "",
		"emoji 👍":            "emoji 👍",
	}
	for in, want := range cases {
		if got := CleanStatusText(in); got != want {
			t.Errorf("CleanStatusText(%q) = %q; want %q", in, got, want)
		}
	}
}

func FuzzParseProgramStatus(f *testing.F) {
	for _, s := range []string{"?", "state=working", "state=blocked:kind=auth:progress=5:id=a/b:app=x:title=" + psB64("T") + ":msg=" + psB64("M"), "state=idle:msg=QQ", "state=clear:id=a//", ":::", "state=done:title=" + psB64("\u202e\x1b")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, ok := ParseProgramStatus(s)
		if !ok {
			if ps != (ProgramStatus{}) {
				t.Fatalf("refused but %+v", ps)
			}
			return
		}
		if ps.Query {
			return
		}
		if ps.Progress < -1 || ps.Progress > 100 {
			t.Fatalf("progress %d", ps.Progress)
		}
		if ps.Kind != "" && ps.State != "blocked" {
			t.Fatalf("kind %q with state %q", ps.Kind, ps.State)
		}
		for _, txt := range []string{ps.Title, ps.Msg, ps.App} {
			if !utf8.ValidString(txt) {
				t.Fatalf("invalid UTF-8 %q", txt)
			}
			for _, r := range txt {
				if statusIsControl(r) || statusIsInvisible(r) {
					t.Fatalf("unclean text %q", txt)
				}
			}
		}
		if len(ps.Title) > MaxProgramStatusTitle || len(ps.Msg) > MaxProgramStatusMsg || len(ps.App) > MaxProgramStatusApp {
			t.Fatalf("over a limit: %+v", ps)
		}
	})
}
