package client

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/rawio"
)

// A typing connection (the attach client's) is a rawio.Conn on Linux and
// works as any other: a quiet request goes out, a call is answered.
// Others keep the socket the dial made.
func TestTypingConnection(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	path := filepath.Join(dir, "d.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					if line := sc.Text(); !strings.Contains(line, `"quiet":true`) {
						var rq struct{ ID json.RawMessage }
						json.Unmarshal([]byte(line), &rq)
						c.Write([]byte(`{"id":` + string(rq.ID) + `,"result":{"type":"ok","v":7}}` + "\n"))
					}
				}
			}()
		}
	}()
	for _, typing := range []bool{false, true} {
		c, err := Dial(Options{Socket: path, Typing: typing})
		if err != nil {
			t.Fatal(err)
		}
		_, moved := c.Conn().(*rawio.Conn)
		if moved != (typing && runtime.GOOS == "linux") {
			t.Errorf("typing %v: the connection is %T", typing, c.Conn())
		}
		if err := c.SendQuiet("send-text", map[string]any{"text": "k"}); err != nil {
			t.Fatal(err)
		}
		var res struct{ V int }
		if err := c.Call("list-sessions", nil, &res); err != nil || res.V != 7 {
			t.Fatalf("typing %v: call: %+v %v", typing, res, err)
		}
		c.Close()
	}
}
