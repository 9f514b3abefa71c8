package cli_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// Real agents over a protocol, against the model-API stand-ins: each runs
// through start-agent --protocol, a turn whose shell command is allowed
// from the Inbox (it runs), one denied (it does not), a turn cancelled
// with Ctrl+C while the model is still thinking, and Ctrl+D. The pane's
// trace ($TUIOS_AGENT_PROTO_TRACE) gives the time from each protocol
// message to the report the daemon applied.

// realProto is one agent's recipe.
type realProto struct {
	protocol string
	command  string                                              // the agent's command, its program an absolute path
	tool     func(cmd string) standin.ToolUse                    // the model's shell tool call
	prepare  func(t *testing.T, e *env, work string, url string) // config files and variables
	gemini   bool                                                // the Gemini API stand-in, else the Anthropic/OpenAI one
}

// protoScript answers by the prompt: "allowed"/"denied" ask for a shell
// command writing that file, "slowly" takes a minute, a tool's result is
// answered "Done.", anything else "OK."; requests without tools (an
// agent's side questions) get the stand-in's own asides. A "slowly"
// request is told on slow (when not nil), so a test can interrupt the
// turn while the model is known to be thinking.
func protoScript(work string, tool func(string) standin.ToolUse, slow chan<- struct{}) func(r standin.Request) (standin.Reply, bool) {
	return func(r standin.Request) (standin.Reply, bool) {
		switch {
		case len(r.Tools) == 0:
			return standin.Reply{}, false // the stand-in's asides
		case strings.Contains(r.UserText, "slowly"):
			select {
			case slow <- struct{}{}:
			default:
			}
			return standin.Reply{Text: "Too late.", Delay: time.Minute}, true
		case r.ToolResult:
			return standin.Reply{Text: "Done."}, true
		case strings.Contains(r.UserText, "allowed.txt"):
			return standin.Reply{Tools: []standin.ToolUse{tool("echo tuios-proto-allow > " + filepath.Join(work, "allowed.txt"))}}, true
		case strings.Contains(r.UserText, "denied.txt"):
			return standin.Reply{Tools: []standin.ToolUse{tool("echo tuios-proto-deny > " + filepath.Join(work, "denied.txt"))}}, true
		}
		return standin.Reply{Text: "OK."}, true
	}
}

func runRealProto(t *testing.T, rp realProto) {
	e := newEnv(t)
	work := e.workDir()
	slow := make(chan struct{}, 1)
	opt := standin.Options{Answer: protoScript(work, rp.tool, slow)}
	url := standinURL(t, opt, rp.gemini)
	trace := filepath.Join(e.dir, "trace")
	e.vars = append(e.vars, "TUIOS_AGENT_PROTO_TRACE="+trace)
	rp.prepare(t, e, work, url)

	t0 := time.Now()
	r := e.run("start-agent", "--protocol", rp.protocol, rp.command, "-s", "work", "--name", "agent", "--cwd", work,
		"--ready-timeout", "90000", "--json")
	p := &protoPane{t: t, e: e, name: "agent"}
	if r.code != 0 {
		t.Fatalf("start-agent: exit %d\n%s\n%s\n%s", r.code, r.out, r.err, e.run("capture-pane", "-s", "work", "-w", "agent").out)
	}
	agentStarted(t)
	st := p.get()
	p.window = st.WindowID
	t.Logf("%s ready (idle) %s after start-agent", rp.command, time.Since(t0).Round(time.Millisecond))
	ev := (&agentPane{t: t, e: e}).watch()
	person := attachHeldPerson(t, e.socket())

	// Allowed from the Inbox: the command runs.
	p.typePrompt("Write allowed.txt please")
	p.wait("needs_input", 60*time.Second)
	it := person.heldItem(p.window)
	if s, _ := it["summary"].(string); !strings.HasPrefix(s, "approve shell: ") || !strings.Contains(s, "tuios-proto-allow") {
		t.Fatalf("held item: %v\n%s", it, p.screen())
	}
	if _, err := os.Stat(filepath.Join(work, "allowed.txt")); err == nil {
		t.Fatal("the command ran before anyone answered")
	}
	person.allowOnce(e, it, filepath.Join(work, "allowed.txt"), "tuios-proto-allow")
	p.wait("done", 60*time.Second)

	// Denied from the Inbox: it does not.
	p.typePrompt("Write denied.txt please")
	p.wait("needs_input", 60*time.Second)
	it = person.heldItem(p.window)
	if s, _ := it["summary"].(string); !strings.Contains(s, "tuios-proto-deny") {
		t.Fatalf("held item: %v", it)
	}
	person.call("reply-approval", map[string]any{"window": p.window, "decision": "deny", "human_nonce": person.nonce})
	p.wait("done,idle", 60*time.Second)
	if _, err := os.Stat(filepath.Join(work, "denied.txt")); err == nil {
		t.Fatalf("the denied command ran:\n%s", p.screen())
	}

	// Ctrl+C while the model thinks: the turn is cancelled.
	p.typePrompt("Answer slowly please")
	p.wait("working", 20*time.Second)
	select {
	case <-slow:
	case <-time.After(30 * time.Second):
		t.Fatalf("the model was never asked to answer slowly:\n%s", p.screen())
	}
	e.ok("send-keys", "-s", "work", "-w", "agent", "C-c")
	p.wait("idle", 30*time.Second)
	ev.settled(p.window, "idle", 10*time.Second) // the events stream may trail the wait

	var seen []string
	for _, x := range ev.all() {
		if x.Window == p.window && (len(seen) == 0 || seen[len(seen)-1] != x.State) {
			seen = append(seen, x.State)
		}
	}
	t.Logf("states: %s", strings.Join(seen, " "))
	want := "working needs_input working done working needs_input working"
	if got := strings.Join(seen, " "); !strings.Contains(got, want) || !strings.HasSuffix(got, "working idle") {
		t.Fatalf("states: %s\nwant %q, then working idle", got, want)
	}

	// Ctrl+D quits; the agent goes with the pane.
	e.ok("send-keys", "-s", "work", "-w", "agent", "C-d")
	deadline := time.Now().Add(15 * time.Second)
	for strings.Contains(e.ok("list-windows", "-s", "work"), "agent") {
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not quit:\n%s", p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	logTraceLatency(t, trace)
}

// logTraceLatency reads the pane's trace: for each protocol event that
// changes the state (a permission request, a turn's end), the time until
// the daemon applied the report.
func logTraceLatency(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no trace: %v", err)
	}
	defer f.Close()
	var lat []time.Duration
	var pendingAt int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 {
			continue
		}
		ns, _ := strconv.ParseInt(fs[0], 10, 64)
		switch {
		case fs[1] == "recv" && (strings.HasSuffix(fs[2], "Permission") || strings.HasSuffix(fs[2], "TurnEnded")):
			pendingAt = ns
		case fs[1] == "applied" && pendingAt != 0 && (fs[2] == "needs_input" || fs[2] == "done" || fs[2] == "idle"):
			lat = append(lat, time.Duration(ns-pendingAt))
			pendingAt = 0
		}
	}
	if len(lat) == 0 {
		t.Fatal("the trace has no protocol message followed by a report")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("figures: protocol message → state applied in the daemon: n=%d min %s median %s max %s",
		len(lat), lat[0], lat[len(lat)/2], lat[len(lat)-1])
}

func TestRealGeminiCLIOverACP(t *testing.T) {
	t.Parallel()
	in := findGemini(t)
	realAgent(t, heavyAgent)
	t.Logf("Gemini CLI %s", in.version)
	runRealProto(t, realProto{protocol: "acp", command: in.shim + " --acp", gemini: true,
		tool: func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: "run_shell_command", Input: map[string]any{"command": cmd, "description": "Write a file"}}
		},
		prepare: func(t *testing.T, e *env, work, url string) {
			home := filepath.Join(e.dir, "home")
			seedGeminiHome(t, home, work)
			settings := "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}, " +
				"\"general\": {\"enableAutoUpdate\": false, \"enableAutoUpdateNotification\": false}, \"privacy\": {\"usageStatisticsEnabled\": false}}\n"
			if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
				t.Fatal(err)
			}
			for i, v := range e.vars {
				if strings.HasPrefix(v, "PATH=") {
					e.vars[i] = v + ":" + in.node
				}
			}
			e.vars = append(e.vars, "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=standin-gemini-key", "DISABLE_AUTOUPDATER=1")
		}})
}

// writeHome writes a file under the env's home.
func writeHome(t *testing.T, e *env, rel, body string) {
	t.Helper()
	path := filepath.Join(e.dir, "home", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Qwen Code 0.15.10 over ACP (qwen --acp), its OpenAI-compatible provider
// the Chat Completions stand-in; settings as TestRealQwenCodeHoldsApprovalsForTheInbox found.
func TestRealQwenCodeOverACP(t *testing.T) {
	t.Parallel()
	q := findNPMAgent(t, "@qwen-code/qwen-code", "qwen")
	realAgent(t, heavyAgent)
	t.Logf("Qwen Code %s", q.version)
	runRealProto(t, realProto{protocol: "acp", command: q.shim + " --acp",
		tool: func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: "run_shell_command", Input: map[string]any{"command": cmd, "description": "Write a file"}}
		},
		prepare: func(t *testing.T, e *env, work, url string) {
			writeHome(t, e, ".qwen/settings.json", `{"general":{"enableAutoUpdate":false},"privacy":{"usageStatisticsEnabled":false},`+
				`"security":{"auth":{"selectedType":"openai"}},"$version":4}`)
			e.vars = append(e.vars, "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY=sk-tuios-standin", "OPENAI_MODEL=gpt-stand-in")
		}})
}

// opencode 1.18.33 over ACP (opencode acp), its provider the Chat
// Completions stand-in and bash set to ask, as the hooks test has it.
func TestRealOpencodeOverACP(t *testing.T) {
	t.Parallel()
	a := findNPMAgent(t, "opencode-ai", "opencode")
	realAgent(t, heavyAgent)
	t.Logf("opencode %s", a.version)
	runRealProto(t, realProto{protocol: "acp", command: a.shim + " acp",
		tool: func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: "bash", Input: map[string]any{"command": cmd, "description": "Write a file"}}
		},
		prepare: func(t *testing.T, e *env, work, url string) {
			cfg, _ := json.MarshalIndent(map[string]any{
				"$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled",
				"model": "standin/gpt-stand-in", "permission": map[string]any{"bash": "ask"},
				"provider": map[string]any{"standin": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
					"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-tuios-standin"},
					"models":  map[string]any{"gpt-stand-in": map[string]any{"name": "GPT stand-in", "tool_call": true}},
				}},
			}, "", "  ")
			writeHome(t, e, ".config/opencode/opencode.json", string(cfg)+"\n")
			e.vars = append(e.vars, "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1")
		}})
}

// Codex 0.171.0 over its app-server (codex app-server), the Responses
// stand-in its provider; approval_policy on-request with a read-only
// sandbox, so a command the model asks to run outside it waits for
// approval (what TestRealCodexReportsThroughItsHooks found).
func TestRealCodexOverAppServer(t *testing.T) {
	t.Parallel()
	cx := findNPMAgent(t, "@openai/codex", "codex")
	realAgent(t, lightAgent)
	if bins, _ := filepath.Glob(filepath.Join(cx.prefix, "node_modules", "@openai", "codex-*", "vendor", "*", "bin", "codex")); len(bins) == 0 {
		t.Skipf("the Codex install under %s has no native binary", cx.prefix)
	}
	t.Logf("Codex %s", cx.version)
	runRealProto(t, realProto{protocol: "codex", command: cx.shim + " app-server",
		tool: func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: "exec_command", Input: map[string]any{"cmd": cmd,
				"sandbox_permissions": "require_escalated", "justification": "Write a file?"}}
		},
		prepare: func(t *testing.T, e *env, work, url string) {
			writeHome(t, e, ".codex/config.toml", codexConfig(url, "on-request", "read-only", work))
			e.vars = append(e.vars, "TUIOS_STANDIN_KEY=sk-tuios-standin")
		}})
}

// Claude Code over ACP through Zed's adapter (@zed-industries/claude-code-acp,
// which runs Claude Code through its agent SDK), the Messages stand-in its
// API.
func TestRealClaudeCodeOverACP(t *testing.T) {
	t.Parallel()
	a := findNPMAgent(t, "@zed-industries/claude-code-acp", "claude-code-acp")
	realAgent(t, heavyAgent)
	t.Logf("claude-code-acp %s", a.version)
	runRealProto(t, realProto{protocol: "acp", command: a.shim,
		tool: func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: "Bash", Input: map[string]any{"command": cmd, "description": "Write a file"}}
		},
		prepare: func(t *testing.T, e *env, work, url string) {
			home := filepath.Join(e.dir, "home")
			os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
			seedClaudeHome(t, home, work)
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY="+standinKey,
				"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		}})
}

// The same agents in a terminal pane, with no integration installed, so
// their permission prompt is read from the screen: the time from the
// dialog's text reaching the pane's screen (a window-output wait
// returning) to needs_input (an agent-state wait returning), both waits
// started before the prompt. This is the figure the protocol pane is set
// beside; it is a measurement, logged, so it runs only when asked:
//
//	TUIOS_MEASURE_SCREEN_READ=1 go test ./internal/cli -run TestRealAgentsScreenReadLatency -v
//
// (Under -race on this two-core machine, Claude Code's dialog stayed
// working: the transcript's working claim was never lent to the screen
// rule that fired; without -race it reads needs_input at once.)
func TestRealAgentsScreenReadLatency(t *testing.T) {
	if os.Getenv("TUIOS_MEASURE_SCREEN_READ") == "" {
		t.Skip("a measurement: set TUIOS_MEASURE_SCREEN_READ=1 to run it")
	}
	type tui struct {
		name, pkg, bin, ready, dialog string
		gemini                        bool
		tool                          func(string) standin.ToolUse
		prepare                       func(t *testing.T, p *agentPane, url string)
	}
	shell := func(name string) func(string) standin.ToolUse {
		return func(cmd string) standin.ToolUse {
			return standin.ToolUse{Name: name, Input: map[string]any{"command": cmd, "description": "Write a file"}}
		}
	}
	for _, a := range []tui{
		{name: "gemini", pkg: "@google/gemini-cli", bin: "gemini", ready: "Type your message", dialog: `Allow execution`, gemini: true, tool: shell("run_shell_command"),
			prepare: func(t *testing.T, p *agentPane, url string) {
				seedGeminiHome(t, p.home, p.work)
				p.write(".gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}, "privacy": {"usageStatisticsEnabled": false}}`)
				p.e.vars = append(p.e.vars, "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=standin-gemini-key", "DISABLE_AUTOUPDATER=1")
			}},
		{name: "qwen", pkg: "@qwen-code/qwen-code", bin: "qwen", ready: "Type your message", dialog: `(?i)allow execution of`, tool: shell("run_shell_command"),
			prepare: func(t *testing.T, p *agentPane, url string) {
				p.write(".qwen/settings.json", `{"general":{"enableAutoUpdate":false},"privacy":{"usageStatisticsEnabled":false},"security":{"auth":{"selectedType":"openai"}},"$version":4}`)
				p.e.vars = append(p.e.vars, "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY=sk-tuios-standin", "OPENAI_MODEL=gpt-stand-in")
			}},
		{name: "opencode", pkg: "opencode-ai", bin: "opencode", ready: "Ask anything", dialog: `Permission required`, tool: shell("bash"),
			prepare: func(t *testing.T, p *agentPane, url string) {
				cfg, _ := json.Marshal(map[string]any{"autoupdate": false, "share": "disabled", "model": "standin/gpt-stand-in", "permission": map[string]any{"bash": "ask"},
					"provider": map[string]any{"standin": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
						"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-tuios-standin"},
						"models":  map[string]any{"gpt-stand-in": map[string]any{"name": "GPT stand-in", "tool_call": true}}}}})
				p.write(".config/opencode/opencode.json", string(cfg))
				p.e.vars = append(p.e.vars, "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1")
			}},
		{name: "claude", pkg: "@anthropic-ai/claude-code", bin: "claude", ready: "for shortcuts", dialog: `Do you want to proceed`, tool: shell("Bash"),
			prepare: func(t *testing.T, p *agentPane, url string) {
				os.MkdirAll(filepath.Join(p.home, ".claude"), 0o755)
				seedClaudeHome(t, p.home, p.work)
				p.e.vars = append(p.e.vars, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY="+standinKey, "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
			}},
		{name: "codex", pkg: "@openai/codex", bin: "codex", ready: "Ask Codex to do anything", dialog: `(?i)allow command\?|press enter to confirm`,
			tool: func(cmd string) standin.ToolUse {
				return standin.ToolUse{Name: "exec_command", Input: map[string]any{"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "Write a file?"}}
			},
			prepare: func(t *testing.T, p *agentPane, url string) {
				p.write(".codex/config.toml", "model = \"gpt-stand-in\"\nmodel_provider = \"standin\"\napproval_policy = \"on-request\"\nsandbox_mode = \"read-only\"\n"+
					"check_for_update_on_startup = false\n\n[model_providers.standin]\nname = \"Stand-in\"\nbase_url = \""+url+"/v1\"\nwire_api = \"responses\"\n"+
					"env_key = \"TUIOS_STANDIN_KEY\"\n\n[projects.\""+p.work+"\"]\ntrust_level = \"trusted\"\n")
				p.e.vars = append(p.e.vars, "TUIOS_STANDIN_KEY=sk-tuios-standin")
				t.Cleanup(func() { killUnder(t, filepath.Join(p.home, ".codex")) })
			}},
	} {
		t.Run(a.name, func(t *testing.T) {
			in := findNPMAgent(t, a.pkg, a.bin)
			p := newAgentPane(t)
			opt := standin.Options{Answer: protoScript(p.work, a.tool, nil)}
			url := standinURL(t, opt, a.gemini)
			a.prepare(t, p, url)
			if node, err := exec.LookPath("node"); err == nil {
				for i, v := range p.e.vars {
					if strings.HasPrefix(v, "PATH=") {
						p.e.vars[i] = v + ":" + filepath.Dir(node)
					}
				}
			}
			p.start(in.shim, a.ready, 60*time.Second)
			time.Sleep(3 * time.Second) // detection attributes the pane to its harness
			type ret struct {
				at   time.Time
				code int
			}
			waitRet := func(args ...string) chan ret {
				ch := make(chan ret, 1)
				go func() {
					cmd := exec.Command(p.e.bin, args...)
					cmd.Env = p.e.vars
					err := cmd.Run()
					code := 0
					if err != nil {
						code = 1
					}
					ch <- ret{time.Now(), code}
				}()
				return ch
			}
			screen := waitRet("wait-for", "window-output", "-s", "work", "--pattern", a.dialog, "--timeout", "60000")
			state := waitRet("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "needs_input", "--timeout", "60000")
			time.Sleep(300 * time.Millisecond) // both waits are listening
			p.prompt("Write allowed.txt please")
			var s ret
			for try := 0; ; try++ {
				select {
				case s = <-screen:
				case <-time.After(3 * time.Second):
					if try < 3 {
						// An agent may still be starting up and drop the
						// Enter; a person would press it again.
						p.e.ok("send-keys", "-s", "work", "Enter")
						continue
					}
					s = <-screen
				}
				break
			}
			st := <-state
			if s.code != 0 || st.code != 0 {
				t.Fatalf("dialog seen %v, needs_input %v (now %+v):\n%s\n%s", s.code == 0, st.code == 0, p.get(), p.e.ok("capture-pane", "-s", "work"),
					p.e.run("explain-agent-screen", "-s", "work", "-w", "0").out)
			}
			t.Logf("figures: %s %s in a terminal pane: dialog on screen → needs_input %s (read from the screen)", a.name, in.version, st.at.Sub(s.at).Round(time.Millisecond))
			p.e.ok("send-keys", "-s", "work", "Escape")
		})
	}
}
