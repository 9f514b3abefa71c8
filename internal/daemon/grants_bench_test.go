package daemon

import (
	"bufio"
	"net"
	"testing"
)

// One call on a fresh connection, as each CLI call makes: hello is not
// placed (any caller may say it); list-sessions and capture-pane place
// the caller (its ancestry from /proc, its environment) and read its
// grants first. The difference is what placing a caller costs.
func BenchmarkFreshConnectionCall(b *testing.B) {
	_, sock := server(b)
	r := dialRPC(b, sock)
	r.must("new-session", map[string]any{"name": "b"})
	for _, c := range []struct{ name, line string }{
		{"hello", `{"verb":"hello"}`},
		{"list-sessions", `{"verb":"list-sessions"}`},
		{"capture-pane", `{"verb":"capture-pane","params":{"session":"b","window":"0"}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cn, err := net.Dial("unix", sock)
				if err != nil {
					b.Fatal(err)
				}
				cn.Write([]byte(c.line + "\n"))
				if _, err := bufio.NewReader(cn).ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				cn.Close()
			}
		})
	}
}
