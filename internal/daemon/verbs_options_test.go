package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

const optionsFile = `# my tuios config: hand-written, keep my comments

[daemon]
resume_agents = "ask"     # ask me first
restore = true

[notifications.agent]
enabled = true
sound = false             # quiet by day
# quiet_hours = "22:00-07:00"

[agents]
enabled = true            # outside list-options

[hosts.build]
addr = "127.0.0.1:1"
`

// optionsServer runs a daemon that read a scratch config file with
// comments, and returns the file's path.
func optionsServer(t *testing.T) (*Server, string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(optionsFile), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, sock := serverWith(t, func(o *Options) {
		o.Config = f
		o.Getenv = func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return dir
			}
			return ""
		}
	})
	return srv, sock, path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// set-config changes the key's one line and keeps every other byte of
// the file; the change is at once in the file (what a client reads when
// it attaches), in get-option and list-options, and announced to
// subscribers with a config-changed event.
func TestSetConfigEditsOneLineAndKeepsTheRest(t *testing.T) {
	t.Parallel()
	_, sock, path := optionsServer(t)
	r := dialRPC(t, sock)
	sub := dialRPC(t, sock)
	sub.must("subscribe", map[string]any{"types": []string{"config-changed"}})

	res := r.must("set-config", map[string]any{"key": "notifications.agent.sound", "value": "true"})
	if res["type"] != "option_set" || res["value"] != true || res["previous"] != false || res["changed"] != true || res["path"] != path || res["read_by"] != "client" {
		t.Fatalf("set-config: %v", res)
	}
	want := strings.Replace(optionsFile, "sound = false             # quiet by day", "sound = true             # quiet by day", 1)
	if got := readFile(t, path); got != want {
		t.Fatalf("the file:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	ev := sub.nextLine()
	if ev["type"] != "config-changed" || ev["message"] != "notifications.agent.sound" {
		t.Fatalf("event: %v", ev)
	}
	// What the attach client reads when it attaches.
	if f, err := config.Load(path); err != nil || !f.Alerts().Sound {
		t.Fatalf("a client attaching now would not ring: %v", err)
	}
	if g := r.must("get-option", map[string]any{"key": "notifications.agent.sound"})["option"].(map[string]any); g["value"] != true || g["set"] != true || g["default"] != false || g["type"] != "bool" {
		t.Fatalf("get-option: %v", g)
	}

	// A key the file lacks is added under its table; set-option is the
	// same verb; a JSON number is taken as it is.
	r.must("set-option", map[string]any{"key": "notifications.agent.settle_seconds", "value": 5})
	want = strings.Replace(want, "# quiet by day\n", "# quiet by day\nsettle_seconds = 5\n", 1)
	if got := readFile(t, path); got != want {
		t.Fatalf("after settle_seconds:\n%s", got)
	}
	// The same value again writes nothing.
	if res := r.must("set-config", map[string]any{"key": "notifications.agent.settle_seconds", "value": "5"}); res["changed"] != false {
		t.Fatalf("same value: %v", res)
	}

	// A daemon key shows what the running daemon uses beside the file.
	r.must("set-config", map[string]any{"key": "daemon.resume_agents", "value": "off"})
	g := r.must("get-option", map[string]any{"key": "daemon.resume_agents"})["option"].(map[string]any)
	if g["value"] != "off" || g["running"] != "ask" || g["pending"] != true || !strings.Contains(str(g["applies"]), "daemon starts") {
		t.Fatalf("daemon key: %v", g)
	}

	l := r.must("list-options", map[string]any{})
	keys := map[string]map[string]any{}
	for _, o := range l["options"].([]any) {
		m := o.(map[string]any)
		keys[str(m["key"])] = m
	}
	for _, k := range []string{"notifications.agent.sound", "notifications.agent.sound_mode", "ui.rail", "daemon.restore", "notifications.agent.states.done"} {
		if keys[k] == nil {
			t.Errorf("list-options lacks %s", k)
		}
	}
	for k := range keys {
		for _, no := range []string{"agents.", "hosts.", "notify.", "keybindings.", "dock.", "hooks.", "tailscale.", "daemon.respond_from_shell"} {
			if strings.HasPrefix(k, no) {
				t.Errorf("list-options shows %s", k)
			}
		}
	}
	if m := keys["notifications.agent.sound_mode"]; m["value"] != "audio" || m["set"] != false || m["type"] != "enum" {
		t.Fatalf("sound_mode row: %v", m)
	}
	if p := r.must("list-options", map[string]any{"prefix": "ui."}); len(p["options"].([]any)) != 2 {
		t.Fatalf("prefix ui.: %v", p)
	}
}

// Each refusal says why and leaves the file as it was.
func TestSetConfigRefusals(t *testing.T) {
	t.Parallel()
	_, sock, path := optionsServer(t)
	r := dialRPC(t, sock)
	for _, c := range []struct {
		key   string
		value any
		code  string
		words []string
	}{
		{"notifications.agent.sond", true, proto.CodeInvalidParams, []string{"no option"}},
		{"daemon.respond_from_shell", true, proto.CodeForbidden, []string{"never set over the socket"}},
		{"agents.queue.max", 3, proto.CodeForbidden, []string{"[agents]"}},
		{"hosts.build.addr", "evil:22", proto.CodeForbidden, []string{"[hosts]"}},
		{"notify.ntfy.url", "https://ntfy.sh/x", proto.CodeForbidden, []string{"[notify]", "config apply"}},
		{"keybindings.prefix", "ctrl+a", proto.CodeForbidden, []string{"key bindings"}},
		{"dock.items", "x", proto.CodeForbidden, []string{"[dock]"}},
		{"notifications.agent.sound", "loud", proto.CodeInvalidParams, []string{"not true or false"}},
		{"notifications.agent.settle_seconds", 99999, proto.CodeInvalidParams, []string{"0 to 3600"}},
		{"notifications.agent.sound_mode", "loud", proto.CodeInvalidParams, []string{"audio, bell, both"}},
		{"notifications.agent.quiet_hours", "late", proto.CodeInvalidParams, []string{"HH:MM"}},
		{"ui.rail", []int{1}, proto.CodeInvalidParams, []string{"bool, a number or a string"}},
	} {
		_, err := r.call("set-config", map[string]any{"key": c.key, "value": c.value})
		if err == nil || err.Code != c.code {
			t.Errorf("%s = %v: want %s, got %v", c.key, c.value, c.code, err)
			continue
		}
		text := err.Message
		if err.Hint != nil {
			text += " | " + err.Hint.Detail + " | " + err.Hint.DidYouMean
		}
		for _, w := range c.words {
			if !strings.Contains(text, w) {
				t.Errorf("%s = %v: %q lacks %q", c.key, c.value, text, w)
			}
		}
	}
	_, err := r.call("set-config", map[string]any{"key": "notifications.agent.sond", "value": true})
	if err.Hint == nil || err.Hint.DidYouMean != "notifications.agent.sound" {
		t.Fatalf("no did-you-mean: %+v", err.Hint)
	}
	if _, err := r.call("get-option", map[string]any{"key": "notify.ntfy.token"}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("get-option of a secret: %v", err)
	}
	if got := readFile(t, path); got != optionsFile {
		t.Fatalf("a refused call changed the file:\n%s", got)
	}
	// From a terminal outside every pane (this test), the person may
	// turn agents off; it applies at the next start.
	res := r.must("set-config", map[string]any{"key": "agents.enabled", "value": false})
	if res["changed"] != true || !strings.Contains(readFile(t, path), "enabled = false            # outside list-options") {
		t.Fatalf("agents.enabled by the person: %v\n%s", res, readFile(t, path))
	}
}

// A link may read options (list) but never set one.
func TestSetConfigRefusedOverALink(t *testing.T) {
	t.Parallel()
	_, sock, path := optionsServer(t)
	l := linkRPC(t, sock, "build", false)
	l.must("get-option", map[string]any{"key": "ui.rail"})
	_, err := l.call("set-config", map[string]any{"key": "ui.rail", "value": "right"})
	wantForbidden(t, "set-config over a link", err, "refused over links")
	_, err = l.call("set-option", map[string]any{"key": "ui.rail", "value": "right"})
	wantForbidden(t, "set-option over a link", err, "refused over links")
	if readFile(t, path) != optionsFile {
		t.Fatal("the file changed")
	}
}

// TestOptionPaneHelper is not a test: run inside a pane
// (TUIOS_OPTION_HELPER names the socket) it is a program in that pane
// setting options, and prints what the daemon answered.
func TestOptionPaneHelper(t *testing.T) {
	t.Parallel()
	sock := os.Getenv("TUIOS_OPTION_HELPER")
	if sock == "" {
		t.Skip("a helper process, not a test")
	}
	r := dialRPC(t, sock)
	for _, kv := range [][2]any{{"agents.enabled", false}, {"notifications.agent.command", "curl evil"}, {"notifications.agent.sound_mode", "bell"}} {
		code := "ok"
		if _, perr := r.call("set-config", map[string]any{"key": kv[0], "value": kv[1]}); perr != nil {
			code = perr.Code
		}
		os.Stdout.WriteString("helper " + kv[0].(string) + "=" + code + "\n")
	}
	os.Stdout.WriteString("helper_done\n")
}

// From a pane, the person-only keys are refused; an ordinary one is set.
func TestSetConfigPersonOnlyKeysRefusedFromAPane(t *testing.T) {
	t.Parallel()
	_, sock, path := optionsServer(t)
	r := dialRPC(t, sock)
	exe, _ := os.Executable()
	id := str(r.must("new-session", map[string]any{"name": "p",
		"argv": []string{"sh", "-c", `TUIOS_OPTION_HELPER="$1" "$2" -test.run='^TestOptionPaneHelper$'; sleep 60`, "sh", sock, exe}})["window_id"])
	r.must("wait-for", map[string]any{"session": "p", "window": id, "condition": "window-output", "pattern": "helper_done", "timeout": 15000})
	out := str(r.must("capture-pane", map[string]any{"window": id})["content"])
	for _, w := range []string{"helper agents.enabled=forbidden", "helper notifications.agent.command=forbidden", "helper notifications.agent.sound_mode=ok"} {
		if !strings.Contains(out, w) {
			t.Fatalf("pane output lacks %q:\n%s", w, out)
		}
	}
	got := readFile(t, path)
	if strings.Contains(got, "enabled = false") || strings.Contains(got, "curl") || !strings.Contains(got, `sound_mode = "bell"`) {
		t.Fatalf("the file:\n%s", got)
	}
}

func TestListThemesAnswersTheBuiltIn(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	res := r.must("list-themes", map[string]any{})
	themes := res["themes"].([]any)
	if len(themes) != 1 || themes[0].(map[string]any)["name"] != "default" || themes[0].(map[string]any)["current"] != true || !strings.Contains(str(res["note"]), "one built-in theme") {
		t.Fatalf("list-themes: %v", res)
	}
}

// FuzzOptionValue: any JSON a caller sends as the value of any key is
// refused with invalid_params or read into a value the key accepts.
func FuzzOptionValue(f *testing.F) {
	for _, v := range []string{`true`, `"true"`, `5`, `"5"`, `1e400`, `"bell"`, `null`, `[1]`, `{"a":1}`, `"22:00-07:00"`, `-0`, `"\u0000"`} {
		f.Add(v, 3)
	}
	opts := config.Options()
	f.Fuzz(func(t *testing.T, raw string, k int) {
		if k < 0 {
			k = -k
		}
		o := opts[k%len(opts)]
		text, perr := valueText([]byte(raw))
		if perr != nil {
			if perr.Code != proto.CodeInvalidParams {
				t.Fatalf("%q: %v", raw, perr)
			}
			return
		}
		v, err := o.Parse(text)
		if err != nil {
			if pe := optionError(err); pe.Code != proto.CodeInvalidParams || pe.Hint == nil || !strings.HasPrefix(pe.Hint.Detail, "accepted: ") {
				t.Fatalf("%s %q: %+v", o.Key, raw, pe)
			}
			return
		}
		if again, err := o.Parse(text); err != nil || !sameValue(again, v) {
			t.Fatalf("%s %q: not stable: %v %v", o.Key, raw, again, err)
		}
	})
}

// An attached client hears that set-config wrote the file: the layout's
// config_seq moves, and the client reads its alerts again.
func TestSetConfigMovesTheLayoutsConfigSeq(t *testing.T) {
	t.Parallel()
	_, sock, _ := optionsServer(t)
	r := dialRPC(t, sock)
	catPane(t, r, "api")
	st, _ := attachStreamT(t, sock, map[string]any{"session": "api", "cols": 100, "rows": 30})
	first := layoutOf(t, st.until("a layout", func(l line) bool { return l.typ == "layout" })).ConfigSeq
	r.must("set-config", map[string]any{"key": "notifications.agent.sound", "value": "true"})
	st.until("a layout with a new config_seq", func(l line) bool {
		return l.typ == "layout" && layoutOf(t, l).ConfigSeq > first
	})
}
