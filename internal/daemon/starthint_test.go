package daemon

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// A window that cannot start says what to do in the caller's words, never
// the pty package's field names.
func TestStartFailureHints(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "h"})
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"session": "h", "argv": []string{"no-such-program-xyz"}}, "check the command name and PATH"},
		{map[string]any{"session": "h", "cwd": "/nonexistent/dir/xyz"}, "the directory does not exist"},
	} {
		_, err := r.call("new-window", c.params)
		if err == nil || err.Code != proto.CodeCommandFailed || err.Hint == nil {
			t.Fatalf("new-window %v: %+v", c.params, err)
		}
		if h := err.Hint.Detail; !strings.Contains(h, c.want) || strings.Contains(h, "Options") {
			t.Fatalf("new-window %v: hint %q", c.params, h)
		}
	}
}
