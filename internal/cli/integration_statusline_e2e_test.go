package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The person has a status line of their own (c.md 5): --then naming
// another command is refused and the file is left alone; without --then
// tuios chains to theirs and uninstall gives the file back as it was. A
// --then given where there is none is read back by a later install and
// left in place by uninstall.
func TestIntegrationStatusLineKeepsTheOwnCommand(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := filepath.Join(e.dir, "home", ".claude")
	os.MkdirAll(dir, 0o755)
	settings := filepath.Join(dir, "settings.json")
	own := `{"theme":"dark","statusLine":{"type":"command","command":"~/bin/mystatus"}}` + "\n"
	os.WriteFile(settings, []byte(own), 0o644)
	read := func() string {
		b, err := os.ReadFile(settings)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	statusCommand := func() string {
		var v struct {
			StatusLine *struct {
				Command string `json:"command"`
			} `json:"statusLine"`
		}
		if err := json.Unmarshal([]byte(read()), &v); err != nil {
			t.Fatalf("settings: %v\n%s", err, read())
		}
		if v.StatusLine == nil {
			return ""
		}
		return v.StatusLine.Command
	}

	r := e.fails("status_line_taken", "integration", "install", "claude-code", "--statusline", "--then", "/bin/other")
	if !strings.Contains(r.err, `"~/bin/mystatus"`) || !strings.Contains(r.err, "leave out --then") {
		t.Fatalf("refusal: %s", r.err)
	}
	if read() != own {
		t.Fatalf("a refused install wrote the file:\n%s", read())
	}
	e.ok("integration", "install", "claude-code", "--statusline")
	if c := statusCommand(); !strings.Contains(c, "--statusline --then '~/bin/mystatus'") {
		t.Fatalf("not chained: %s", c)
	}
	e.fails("status_line_taken", "integration", "install", "claude-code", "--statusline", "--then", "/bin/other")
	e.ok("integration", "uninstall", "claude-code")
	if read() != own {
		t.Fatalf("uninstall did not give the file back:\n%s", read())
	}

	// No status line of one's own: --then is chained, kept by a second
	// install, and left as the status line by uninstall.
	os.WriteFile(settings, []byte(`{"theme":"dark"}`+"\n"), 0o644)
	e.ok("integration", "install", "claude-code", "--statusline", "--then", "/bin/other")
	e.ok("integration", "install", "claude-code", "--statusline")
	if c := statusCommand(); !strings.HasSuffix(c, "--statusline --then /bin/other") {
		t.Fatalf("the second install lost --then: %s", c)
	}
	e.ok("integration", "uninstall", "claude-code")
	if c := statusCommand(); c != "/bin/other" {
		t.Fatalf("after uninstall the status line is %q, want /bin/other", c)
	}
}
