package tmpdebug

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/agentproto/acp"
	"github.com/tuios/tuios/internal/agentproto/conv"
	"github.com/tuios/tuios/internal/standin"
)

func TestDebugGemini(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), []byte(`{"`+work+`":"TRUST_FOLDER"}`), 0o600)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}, "privacy": {"usageStatisticsEnabled": false}}`), 0o600)
	api, err := standin.StartGemini(standin.Options{Answer: func(r standin.Request) (standin.Reply, bool) {
		fmt.Printf("REQ tools=%d toolresult=%v user=%q\n", len(r.Tools), r.ToolResult, r.UserText)
		if len(r.Tools) == 0 {
			return standin.Reply{}, false
		}
		if r.ToolResult {
			return standin.Reply{Text: "Done."}, true
		}
		return standin.Reply{Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "echo hi > " + work + "/x.txt", "description": "w"}}}}, true
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	cmd := exec.Command(os.Getenv("HOME")+"/.cache/tuios-ci-agents/node_modules/.bin/gemini", "--acp")
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "GOOGLE_GEMINI_BASE_URL=" + api.URL(), "GEMINI_API_KEY=k", "DISABLE_AUTOUPDATER=1"}
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Start()
	defer cmd.Process.Kill()
	var c *acp.Client
	c = acp.New(out, in, acp.Options{Cwd: work, Emit: func(e conv.Event) {
		fmt.Printf("EVENT %T %+v\n", e, e)
		if p, ok := e.(conv.Permission); ok {
			go c.Answer(p.ID, conv.AllowOnce)
		}
	}, OnNoise: func(l []byte, err error) { fmt.Printf("NOISE %q\n", l) }})
	go c.Run()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	c.Prompt(os.Getenv("PROMPT"))
	time.Sleep(40 * time.Second)
}
