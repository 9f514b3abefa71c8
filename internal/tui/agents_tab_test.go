package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/proto"
)

// scratchHome is a home directory of the test's own, with the given
// harnesses' config directories made (as if each had run once).
func scratchHome(t *testing.T, dirs ...string) integration.Env {
	t.Helper()
	dir := t.TempDir()
	for _, d := range dirs {
		os.MkdirAll(filepath.Join(dir, d), 0o700)
	}
	return integration.Env{Home: dir, Getenv: func(string) string { return "" }}
}

// staleInstall installs Claude Code's integration running program, then
// turns its hooks back to version 3, as an older tuios wrote them.
func staleInstall(t *testing.T, env integration.Env, program string) string {
	t.Helper()
	h, _ := integration.Lookup("claude-code")
	if _, err := integration.Install(h, integration.Options{Env: env, Program: program}); err != nil {
		t.Fatal(err)
	}
	path := h.File(env)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, regexp.MustCompile(`--integration \d+`).ReplaceAll(b, []byte("--integration 3")), 0o600)
	if st := integration.StatusOf(h, env); st.State != integration.StateOutOfDate {
		t.Fatalf("after the downgrade: %+v", st)
	}
	return path
}

// The tab lists every harness with its state and the line under it;
// enter on an out-of-date row offers Update and Uninstall, each naming
// the file; Update keeps the program the hooks ran; Uninstall removes it.
func TestAgentsTabUpdateThenUninstall(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.width = 200
	env := scratchHome(t, ".claude")
	m.agentsUI.env = &env
	path := staleInstall(t, env, "/opt/tuios")

	m.Update(key("ctrl+b"))
	m.Update(key("A"))
	if m.agentsUI.tab == nil {
		t.Fatalf("prefix A did not open the tab; dock %q", m.dock)
	}
	s := screenText(m)
	if !regexp.MustCompile(`Claude Code\s+(yes|no)\s+out of date`).MatchString(s) || !strings.Contains(s, "an older tuios installed it") {
		t.Fatalf("the tab:\n%s", s)
	}
	if !regexp.MustCompile(`Codex\s+(yes|no)\s+not installed`).MatchString(s) {
		t.Errorf("a harness that never ran is not listed as not installed:\n%s", s)
	}
	m.Update(key("enter"))
	s = screenText(m)
	if !strings.Contains(s, "Update     replaces the older install") || !strings.Contains(s, "Uninstall  removes what tuios wrote") ||
		strings.Count(s, "changes "+path) != 2 {
		t.Fatalf("the actions:\n%s", s)
	}
	m.Update(key("enter"))
	h, _ := integration.Lookup("claude-code")
	st := integration.StatusOf(h, env)
	if st.State != integration.StateInstalled || st.Program != "/opt/tuios" {
		t.Fatalf("after Update: %+v", st)
	}
	if !strings.Contains(m.dock, "Claude Code: integration updated in "+path) {
		t.Errorf("dock after Update: %q", m.dock)
	}
	if s := screenText(m); !regexp.MustCompile(`Claude Code\s+(yes|no)\s+installed`).MatchString(s) || !strings.Contains(s, "its hooks run /opt/tuios") {
		t.Errorf("the row after Update:\n%s", s)
	}

	m.Update(key("enter")) // an installed row offers Uninstall alone
	if s := screenText(m); strings.Contains(s, "Update ") || !strings.Contains(s, "Uninstall") {
		t.Fatalf("the installed row's actions:\n%s", s)
	}
	m.Update(key("enter"))
	if st := integration.StatusOf(h, env); st.State != integration.StateNotInstalled {
		t.Fatalf("after Uninstall: %+v", st)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "agent-hook") {
		t.Errorf("Uninstall left tuios's hooks:\n%s", b)
	}

	m.Update(key("esc"))
	if m.agentsUI.tab != nil {
		t.Errorf("esc did not close the tab")
	}
}

// A row the integration cannot act on says why in the dock; esc in the
// actions goes back to the list, not out of the tab.
func TestAgentsTabRowsWithoutActions(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	env := scratchHome(t)
	m.agentsUI.env = &env
	m.openAgentsTab()
	tab := m.agentsUI.tab
	at := -1
	for i, st := range tab.rows {
		if st.State == integration.StateNoIntegration {
			at = i
			break
		}
	}
	if at < 0 {
		t.Skip("every harness has an integration")
	}
	tab.at = at
	m.Update(key("enter"))
	if tab.actions != nil || !strings.Contains(m.dock, tab.rows[at].Name+": ") {
		t.Errorf("a no-integration row: actions %v, dock %q", tab.actions, m.dock)
	}
	tab.at = 0
	m.Update(key("enter"))
	if tab.actions == nil {
		t.Fatalf("no actions for %+v", tab.rows[0])
	}
	m.Update(key("esc"))
	if m.agentsUI.tab == nil || tab.actions != nil {
		t.Errorf("esc in the actions: tab %v, actions %v", m.agentsUI.tab, tab.actions)
	}
}

// The tab is not there with agent features off, or for a session on
// another host; the dock says why.
func TestAgentsTabOnlyForLocalAgents(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{AgentsOff: true})
	m.Update(key("ctrl+b"))
	m.Update(key("A"))
	if m.agentsUI.tab != nil || !strings.Contains(m.dock, "agent features are off") {
		t.Errorf("agents off: tab %v, dock %q", m.agentsUI.tab, m.dock)
	}
	m, _, _ = newTest(t, Options{})
	m.link.host = "far"
	m.Update(key("ctrl+b"))
	m.Update(key("A"))
	if m.agentsUI.tab != nil || !strings.Contains(m.dock, "on far, run tuios integration status there") {
		t.Errorf("remote: tab %v, dock %q", m.agentsUI.tab, m.dock)
	}
}

// The notice comes once per harness per run: a second pane of the same
// harness adds none, esc clears it for this run, and a dismissal for good
// (a click on its right end) keeps it away in the next run until the
// state changes.
func TestNoticeOncePerHarness(t *testing.T) {
	t.Parallel()
	env := scratchHome(t, ".claude")
	staleInstall(t, env, "/opt/tuios")
	layout := func(m *Model) {
		m.Update(proto.AttachLayout{Type: "layout", Session: "work", Workspace: 1, Focused: "w1", Cols: 80, Rows: 19,
			Windows: []proto.AttachWindow{{ID: "w1", Name: "shell", Width: 80, Height: 19}},
			Agents: []proto.AttachAgent{
				{Session: "work", Window: "w2", Name: "a", State: "idle", Harness: "claude-code"},
				{Session: "api", Window: "w3", Name: "b", State: "idle", Harness: "claude-code"},
				{Session: "api", Window: "w4", Name: "c", State: "idle", Harness: "no-such-harness"},
			}, AgentsSeen: true})
	}
	const text = "Claude Code integration is out of date. Open Settings, Agents to update it."
	m, _, _ := newTest(t, Options{})
	m.agentsUI.env = &env
	layout(m)
	if got := m.noticeText(); got != text || len(m.agentsUI.queue) != 1 {
		t.Fatalf("notice %q, queue %+v", got, m.agentsUI.queue)
	}
	last := plain(m)[len(plain(m))-1]
	if !strings.Contains(last, text) || !strings.HasSuffix(last, " ✕ ") {
		t.Errorf("dock: %q", last)
	}
	m.Update(key("esc"))
	layout(m)
	if m.noticeText() != "" {
		t.Errorf("the notice came back in the same run")
	}

	m, _, _ = newTest(t, Options{}) // the next run
	m.agentsUI.env = &env
	layout(m)
	if m.noticeText() != text {
		t.Fatalf("esc lasted past the run")
	}
	m.noticeMouse(mouseAt(m.width-1, m.height-1), mouseClick)
	if m.noticeText() != "" {
		t.Fatalf("a click on the right end did not clear it")
	}

	m, _, _ = newTest(t, Options{})
	m.agentsUI.env = &env
	layout(m)
	if m.noticeText() != "" {
		t.Errorf("a notice dismissed for good came back")
	}

	h, _ := integration.Lookup("claude-code")
	integration.Uninstall(h, env) // the state changes: the notice is news again
	m, _, _ = newTest(t, Options{})
	m.agentsUI.env = &env
	layout(m)
	if got := m.noticeText(); got != "Claude Code integration is not installed. Open Settings, Agents to install it." {
		t.Errorf("after the state changed: %q", got)
	}
	m.noticeMouse(mouseAt(3, m.height-1), mouseClick) // a click on the text: this run only
	m, _, _ = newTest(t, Options{})
	m.agentsUI.env = &env
	layout(m)
	if m.noticeText() == "" {
		t.Errorf("a click on the text lasted past the run")
	}
}

// A harness that has never run here, or a pane on another host, gets no
// notice.
func TestNoticeNotWhereItCannotBeInstalled(t *testing.T) {
	t.Parallel()
	env := scratchHome(t) // Claude Code never ran: no ~/.claude
	m, _, _ := newTest(t, Options{})
	m.agentsUI.env = &env
	m.Update(proto.AttachLayout{Type: "layout", Session: "work", Agents: []proto.AttachAgent{{Window: "w2", Harness: "claude-code", State: "idle"}}})
	if m.noticeText() != "" {
		t.Errorf("a notice for a harness that never ran: %q", m.noticeText())
	}
	env = scratchHome(t, ".claude")
	m, _, _ = newTest(t, Options{})
	m.agentsUI.env = &env
	m.link.host = "far"
	m.Update(proto.AttachLayout{Type: "layout", Session: "work", Agents: []proto.AttachAgent{{Window: "w2", Harness: "claude-code", State: "idle"}}})
	if m.noticeText() != "" {
		t.Errorf("a notice for a pane on another host: %q", m.noticeText())
	}
}

// A click on a row selects it and lists its actions, as enter does; a
// click on the column heads does nothing.
func TestAgentsTabClickRow(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	env := scratchHome(t, ".codex")
	m.agentsUI.env = &env
	m.openAgentsTab()
	rows := plain(m)
	y, heads := -1, -1
	for i, r := range rows {
		if regexp.MustCompile(`│ Codex\s+(yes|no)\s+not installed`).MatchString(r) {
			y = i
		}
		if strings.Contains(r, "HARNESS") {
			heads = i
		}
	}
	if y < 0 {
		t.Fatalf("no Codex row:\n%s", strings.Join(rows, "\n"))
	}
	m.Update(tea.MouseClickMsg(mouseAt(30, heads)))
	if heads < 0 || m.agentsUI.tab.actions != nil {
		t.Fatalf("a click on the heads (row %d) opened actions", heads)
	}
	m.Update(tea.MouseClickMsg(mouseAt(30, y)))
	tab := m.agentsUI.tab
	if tab.rows[tab.at].Harness != "codex" || len(tab.actions) != 1 || tab.actions[0] != actInstall {
		t.Fatalf("after the click: at %s, actions %v", tab.rows[tab.at].Name, tab.actions)
	}
}

// Uninstall removes everything tuios wrote for the harness, each only if
// it is there: the hooks, the status line and the MCP server (its own
// file, named with the action). A harness with the MCP server alone
// offers Uninstall too.
func TestAgentsTabUninstallTakesTheMCPServerToo(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.width = 200
	env := scratchHome(t, ".claude")
	m.agentsUI.env = &env
	h, _ := integration.Lookup("claude-code")
	mcp, err := integration.InstallMCP(h, integration.MCPOptions{Env: env, Program: "/opt/tuios"})
	if err != nil {
		t.Fatal(err)
	}
	mcpFile := mcp.Files[0]
	hooks, err := integration.Install(h, integration.Options{Env: env, Program: "/opt/tuios", StatusLine: true})
	if err != nil {
		t.Fatal(err)
	}
	hooksFile := hooks.Files[0]

	m.openAgentsTab()
	tab := m.agentsUI.tab
	for tab.rows[tab.at].Harness != "claude-code" {
		tab.at++
	}
	m.Update(key("enter"))
	if s := screenText(m); !strings.Contains(s, "Uninstall  removes what tuios wrote") || !strings.Contains(s, "changes "+hooksFile) || !strings.Contains(s, "changes "+mcpFile) {
		t.Fatalf("the installed row's actions:\n%s", s)
	}
	m.Update(key("enter"))
	if integration.MCPInstalled(h, env) {
		t.Errorf("Uninstall left the MCP server in %s", mcpFile)
	}
	if b, _ := os.ReadFile(hooksFile); strings.Contains(string(b), "agent-hook") {
		t.Errorf("Uninstall left tuios's hooks or status line:\n%s", b)
	}
	if !strings.Contains(m.dock, "removed what tuios wrote in "+hooksFile+", "+mcpFile) {
		t.Errorf("dock: %q", m.dock)
	}

	// The MCP server alone: Install the hooks, or Uninstall the server.
	if _, err := integration.InstallMCP(h, integration.MCPOptions{Env: env, Program: "/opt/tuios"}); err != nil {
		t.Fatal(err)
	}
	m.readAgentsTab()
	m.Update(key("enter"))
	if len(tab.actions) != 2 || tab.actions[0] != actInstall || tab.actions[1] != actUninstall {
		t.Fatalf("actions with the MCP server alone: %v", tab.actions)
	}
	if s := screenText(m); !strings.Contains(s, "changes "+mcpFile) {
		t.Fatalf("Uninstall does not name the MCP server's file:\n%s", s)
	}
	m.Update(key("down"))
	m.Update(key("enter"))
	if integration.MCPInstalled(h, env) || integration.StatusOf(h, env).State != integration.StateNotInstalled {
		t.Errorf("after Uninstall of the MCP server alone: mcp %v, %+v; dock %q", integration.MCPInstalled(h, env), integration.StatusOf(h, env), m.dock)
	}
}

// An action that fails says in the dock what to do next, as the CLI's
// hint does (here: a harness that has not run here is to be run once
// first; a settings file the harness saved twice during the edit gets
// "try again" the same way).
func TestAgentsTabErrorSaysWhatToDo(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.width = 400
	env := scratchHome(t) // Codex never ran: no ~/.codex
	m.agentsUI.env = &env
	m.openAgentsTab()
	tab := m.agentsUI.tab
	for tab.rows[tab.at].Harness != "codex" {
		tab.at++
	}
	m.Update(key("enter"))
	m.Update(key("enter")) // Install
	if !strings.Contains(m.dock, "has no config directory") || !strings.Contains(m.dock, "run the harness once first, then install again") {
		t.Errorf("dock: %q", m.dock)
	}
}
