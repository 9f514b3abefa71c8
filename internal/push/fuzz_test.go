package push

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
)

// A provider's answer is outside input: whatever it holds, reading it
// never panics, and what it says back is one clean line with every
// secret masked.
func FuzzAnswerError(f *testing.F) {
	f.Add("pushover", 400, []byte(`{"user":"invalid","errors":["user identifier is invalid `+pushoverUser+`"],"status":0}`))
	f.Add("pushover", 200, []byte(`{"status":1,"request":"x"}`))
	f.Add("pushover", 200, []byte(`{"status":0,"errors":["x\n\x1b[31m"]}`))
	f.Add("ntfy", 401, []byte(`{"code":40101,"http":401,"error":"unauthorized `+ntfyToken+`"}`))
	f.Add("webhook", 500, []byte("<html>"))
	f.Fuzz(func(t *testing.T, provider string, status int, body []byte) {
		err := answerError(provider, status, body, masker{ntfyToken, pushoverUser})
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, ntfyToken) || strings.Contains(msg, pushoverUser) || strings.ContainsAny(msg, "\n\r\x1b") || !utf8.ValidString(msg) {
			t.Fatalf("unsafe error: %q", msg)
		}
	})
}

// Item fields come from panes: whatever they hold, every provider's
// request is built, and every header value is one that HTTP allows.
func FuzzRequestFromItem(f *testing.F) {
	f.Add("approval", "worker\r\nX-Evil: 1", "api", "Bash: make test", "17")
	f.Add("mail", "", "sess\x00ion", "ünïcödé \x1b]0;title\x07", "a b")
	f.Fuzz(func(t *testing.T, kind, name, session, summary, id string) {
		it := inbox.Item{ID: id, Kind: inbox.Kind(kind), Name: name, Session: session, Summary: summary, Window: "w"}
		s := config.PushSettings{WebURL: "https://term.example.com"}
		for _, titleOnly := range []bool{false, true} {
			s.TitleOnly = titleOnly
			n := FromItem(it, s)
			for _, p := range []Provider{{Name: "ntfy", url: "https://ntfy.sh/t"}, {Name: "pushover", url: "https://api.pushover.net/1/messages.json"}, {Name: "webhook", url: "https://h/x"}} {
				req, err := p.request(n, secrets{token: "t", user: "u"}, "tuios/test")
				if err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
				for k, vs := range req.Header {
					for _, v := range vs {
						if !validHeaderValue(v) {
							t.Fatalf("%s header %s: %q", p.Name, k, v)
						}
					}
				}
				if req.Method != http.MethodPost {
					t.Fatal(req.Method)
				}
			}
		}
	})
}

// validHeaderValue is RFC 7230's field-value: no control character but
// the tab.
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
