package clienttest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inspector is the official inspector's CLI, installed by .ci/run into
// the npm prefix $TUIOS_INSPECTOR_PREFIX (never globally).
func inspector(t *testing.T) string {
	t.Helper()
	prefix := os.Getenv("TUIOS_INSPECTOR_PREFIX")
	if prefix == "" {
		t.Skip("TUIOS_INSPECTOR_PREFIX is not set: .ci/run installs @modelcontextprotocol/inspector there")
	}
	bin := filepath.Join(prefix, "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no inspector at %s: %v", bin, err)
	}
	return bin
}

// inspect runs the inspector's CLI against `tuios mcp --scope all` and
// decodes its one JSON result.
func inspect(t *testing.T, w *world, bin string, args ...string) (map[string]any, string) {
	t.Helper()
	all := []string{"--cli", "--format", "json"}
	// The inspector starts the server with an environment of its own
	// (HOME, PATH, ...): the world's daemon is named with -e, or the
	// server would start one at the default socket.
	for _, kv := range w.vars {
		if k, v, _ := strings.Cut(kv, "="); v != "" && strings.HasPrefix(k, "XDG_") || k == "HOME" {
			all = append(all, "-e", kv)
		}
	}
	all = append(append(all, args...), "--", w.bin, "mcp", "--scope", "all")
	cmd := exec.Command(bin, all...)
	cmd.Env = w.vars
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspector %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("inspector %s: not JSON: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return v, errb.String()
}

// The inspector lists the tools (its --strict portability check finds
// nothing to report) and calls one, in each protocol era it speaks: the
// handshake (legacy), the stateless revision pinned (modern), and the
// probe that picks (auto).
func TestInspectorCLI(t *testing.T) {
	bin := inspector(t)
	w := newWorld(t)
	for _, era := range []string{"legacy", "modern", "auto"} {
		v, stderr := inspect(t, w, bin, "--protocol-era", era, "--strict", "--method", "tools/list")
		tools, _ := v["result"].(map[string]any)["tools"].([]any)
		if len(tools) != 11 {
			t.Errorf("%s: %d tools without --write, want 11", era, len(tools))
		}
		for _, x := range tools {
			if x.(map[string]any)["outputSchema"] == nil {
				t.Errorf("%s: %v has no outputSchema", era, x.(map[string]any)["name"])
			}
		}
		if strings.TrimSpace(stderr) != "" {
			t.Errorf("%s: the inspector reported:\n%s", era, stderr)
		}
		v, _ = inspect(t, w, bin, "--protocol-era", era, "--method", "tools/call", "--tool-name", "tuios_list_windows", "--tool-args-json", `{"session":"work"}`)
		res, _ := v["result"].(map[string]any)
		sc, _ := res["structuredContent"].(map[string]any)
		if res["isError"] == true || sc["type"] != "window_list" || sc["total"] != float64(3) {
			t.Errorf("%s: tools/call: %v", era, v)
		}
		if _, meta := res["_meta"]; meta != (era != "legacy") {
			t.Errorf("%s: the result's _meta (serverInfo) is there: %v", era, meta)
		}
	}
}
