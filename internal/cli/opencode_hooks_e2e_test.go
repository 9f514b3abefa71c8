package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// The real opencode with tuios's plugin installed: one turn with a bash
// call against the Chat Completions stand-in, and every state of it from
// the plugin (source report): working during the turn (session.status
// busy), needs_input naming the command on the permission request
// (permission.asked), done at the end (session.idle). opencode has no
// event at start (a session is made on the first prompt), so the pane at
// the prompt is not the plugin's. Then uninstall removes the plugin.
//
// What opencode 1.18.33 needs, found by running it: a provider in
// ~/.config/opencode/opencode.json with npm "@ai-sdk/openai-compatible"
// (bundled in the binary) and options.baseURL at the stand-in's /v1, the
// model chosen by "model"; "permission": {"bash": "ask"} so the call asks
// (bash is allowed by default). No first-run question is asked.
// OPENCODE_DISABLE_AUTOUPDATE, OPENCODE_DISABLE_MODELS_FETCH and
// OPENCODE_DISABLE_LSP_DOWNLOAD keep it off the network but for one
// thing: with a plugin there, it installs @opencode-ai/plugin from the npm
// registry into ~/.config/opencode before it loads plugins, so its first
// start takes 10 to 25 s.
func TestRealOpencodeReportsThroughItsPlugin(t *testing.T) {
	t.Parallel()
	oc := findNPMAgent(t, "opencode-ai", "opencode")
	if !isELF(oc.shim) {
		t.Skip("this opencode install has no native binary at bin/opencode.exe (its postinstall did not run)")
	}
	opencodeLikeTurn(t, oc, opencodeLike{harness: "opencode", dir: ".config/opencode", config: "opencode.json",
		schema: "https://opencode.ai/config.json", env: "OPENCODE_"})
}

// Kilo, a fork of opencode, loads the same plugin from ~/.config/kilo and
// reads kilo.json there (Kilo 7.8.1, which calls itself 7.7.9); its
// variables are opencode's with KILO_ for OPENCODE_.
func TestRealKiloReportsThroughItsPlugin(t *testing.T) {
	t.Parallel()
	k := findNPMAgent(t, "@kilocode/cli", "kilo")
	opencodeLikeTurn(t, k, opencodeLike{harness: "kilo", dir: ".config/kilo", config: "kilo.json",
		schema: "https://kilo.ai/config.json", env: "KILO_"})
}

type opencodeLike struct {
	harness string // the integration's id
	dir     string // the config directory under the home
	config  string // the config file in it
	schema  string
	env     string // the prefix of its environment variables
}

func opencodeLikeTurn(t *testing.T, a npmAgent, h opencodeLike) {
	realAgent(t, heavyAgent)
	t.Logf("%s %s", h.harness, a.version)
	marker := "tuios-" + h.harness + "-e2e"
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "bash", Input: map[string]any{"command": "echo " + marker + " > made.txt", "description": "Write made.txt"}}},
			Delay: 500 * time.Millisecond},
		{Text: "Done: made.txt is written.", Delay: 500 * time.Millisecond},
	}})

	p := newAgentPane(t)
	e := p.e
	cfg, _ := json.MarshalIndent(map[string]any{
		"$schema":    h.schema,
		"autoupdate": false,
		"share":      "disabled",
		"model":      "standin/gpt-stand-in",
		"permission": map[string]any{"bash": "ask"},
		"provider": map[string]any{"standin": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Stand-in",
			"options": map[string]any{"baseURL": api.URL() + "/v1", "apiKey": "sk-tuios-standin"},
			"models":  map[string]any{"gpt-stand-in": map[string]any{"name": "GPT stand-in", "tool_call": true}},
		}},
	}, "", "  ")
	config := p.write(h.dir+"/"+h.config, string(cfg)+"\n")
	e.ok("integration", "install", h.harness)
	plugin := filepath.Join(p.home, filepath.FromSlash(h.dir), "plugins", "tuios.js")
	if _, err := os.Stat(plugin); err != nil {
		t.Fatalf("no plugin after install: %v", err)
	}

	e.vars = append(e.vars, h.env+"DISABLE_AUTOUPDATE=1", h.env+"DISABLE_MODELS_FETCH=1", h.env+"DISABLE_LSP_DOWNLOAD=1")
	began := time.Now()
	// Its first start installs the plugin's dependency from the npm
	// registry (10 to 25 s on a quiet machine, a few times that on a busy
	// one) before it draws anything; the process's first opencode test
	// does, the later ones start with it in place (agentDeps).
	if h.harness == "opencode" {
		opencodeDeps(a.version).seed(t, filepath.Join(p.home, filepath.FromSlash(h.dir)))
	}
	p.start(a.shim, `Ask anything`, 120*time.Second)
	t.Logf("the prompt after %v", time.Since(began).Round(time.Millisecond))
	if st := p.get(); st.Source == "report" {
		t.Fatalf("a report before any event: %+v", st)
	}
	events := p.watch()
	p.prompt("Write made.txt")

	// The screen may read the dialog before the plugin's event is in
	// (a busy machine): the plugin's report is what this checks.
	st := p.waitReport("needs_input", 60*time.Second)
	if st.Source != "report" || st.Harness != h.harness || st.BlockedBy != "approval" ||
		!strings.Contains(st.Message, "approve bash: echo "+marker) || !strings.HasPrefix(st.SessionID, "ses_") {
		t.Fatalf("on the permission request: %+v", st)
	}
	p.waitScreen(`Allow once`, 10*time.Second)
	p.approve("Enter", `Allow once`) // "Allow once" is selected
	st = p.wait("done", 60*time.Second)
	if st.Source != "report" || st.CompletionSeq != 1 {
		t.Fatalf("after the turn: %+v\nevents: %+v", st, events.all())
	}
	p.made("made.txt", marker)
	// The turn ends with session.status busy, then idle, within a few
	// milliseconds: done must stay.
	time.Sleep(time.Second)
	if st := p.get(); st.State != "done" || st.CompletionSeq != 1 {
		t.Fatalf("a second after the turn: %+v\nevents: %+v", st, events.all())
	}
	if _, ok := events.reported("working", ""); !ok {
		t.Fatalf("no working from the plugin during the turn: %+v", events.all())
	}
	t.Logf("done after %v", time.Since(began).Round(time.Millisecond))
	e.ok("send-keys", "-s", "work", "ctrl+c")

	e.ok("integration", "uninstall", h.harness)
	if _, err := os.Stat(plugin); !os.IsNotExist(err) {
		t.Fatalf("the plugin is still there after uninstall: %v", err)
	}
	if b, _ := os.ReadFile(config); string(b) != string(cfg)+"\n" {
		t.Fatalf("the person's %s changed:\n%s", h.config, b)
	}
}
