package pushtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Delivery is one notification a server took.
type Delivery struct {
	Provider string
	Path     string
	// Auth is the Authorization header as it came.
	Auth string
	// Title, Message, Priority, Click and Tags are what the phone would
	// show, read as the provider reads them (ntfy's headers decoded,
	// Pushover's form fields).
	Title, Message, Priority, Click, Tags string
	// Form is Pushover's form; JSON the webhook's body.
	Form url.Values
	JSON map[string]any
	At   time.Time
}

// Mode is how a server misbehaves; the zero Mode answers as the service.
type Mode struct {
	// Delay answers after this long.
	Delay time.Duration
	// Status answers with this status (500, say) and takes nothing.
	Status int
	// RedirectTo answers every request with a redirect there (the path
	// kept), with RedirectCode (307 when 0).
	RedirectTo   string
	RedirectCode int
	// RedirectSelf answers every request with a 307 to itself: a loop.
	RedirectSelf bool
	// Hang never answers, until the server closes.
	Hang bool
}

// Server is a provider's server on 127.0.0.1.
type Server struct {
	*httptest.Server
	Provider string

	mode    Mode
	stop    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	hits    int // requests that arrived
	done    int // requests answered (or ended)
	got     []Delivery
	refused []string
	changed chan struct{} // closed and replaced on every request
}

func (ca *CA) serve(provider string, m Mode, take func(s *Server, w http.ResponseWriter, r *http.Request)) *Server {
	s := &Server{Provider: provider, mode: m, stop: make(chan struct{}), changed: make(chan struct{})}
	s.Server = ca.start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits++
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
		defer s.bump()
		if s.mode.Hang {
			select {
			case <-s.stop:
			case <-r.Context().Done():
			}
			return
		}
		if d := s.mode.Delay; d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-s.stop:
				t.Stop()
				return
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		if s.mode.RedirectSelf {
			http.Redirect(w, r, "https://"+r.Host+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		if s.mode.RedirectTo != "" {
			code := s.mode.RedirectCode
			if code == 0 {
				code = http.StatusTemporaryRedirect
			}
			http.Redirect(w, r, strings.TrimRight(s.mode.RedirectTo, "/")+r.URL.Path, code)
			return
		}
		if s.mode.Status != 0 {
			s.refuse(w, s.mode.Status, `{"error":"the test server fails on purpose"}`, "mode status")
			return
		}
		take(s, w, r)
	}))
	return s
}

func (s *Server) bump() {
	s.mu.Lock()
	s.done++
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) deliver(d Delivery) {
	d.Provider, d.At = s.Provider, time.Now()
	s.mu.Lock()
	s.got = append(s.got, d)
	s.mu.Unlock()
}

func (s *Server) refuse(w http.ResponseWriter, status int, body, why string) {
	s.mu.Lock()
	s.refused = append(s.refused, why)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// Close stops the server: a hanging request ends first.
func (s *Server) Close() {
	s.once.Do(func() { close(s.stop) })
	s.Server.Close()
}

// Deliveries are the notifications taken so far.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.got...)
}

// Hits is how many requests arrived, taken or not.
func (s *Server) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

// Refused says why each refused request was refused.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

// Wait waits until n requests have been answered (taken, refused,
// redirected or failed on purpose), or timeout passes; it reports
// whether they were.
func (s *Server) Wait(n int, timeout time.Duration) bool {
	return s.waitFor(func() bool { return s.done >= n }, timeout)
}

// WaitArrived waits until n requests have arrived, answered or not.
func (s *Server) WaitArrived(n int, timeout time.Duration) bool {
	return s.waitFor(func() bool { return s.hits >= n }, timeout)
}

func (s *Server) waitFor(cond func() bool, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := cond()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// ---- ntfy ----

var ntfyTopic = regexp.MustCompile(`^/[-_A-Za-z0-9]{1,64}$`)

// Ntfy serves ntfy's publish API: POST or PUT /TOPIC with the message as
// the body and X-Title/Title/t, X-Priority/Priority/p, X-Tags/Tags/ta and
// X-Click/Click headers. With token set a request must carry
// "Authorization: Bearer TOKEN" (403 without, 401 with another).
func (ca *CA) Ntfy(token string, m Mode) *Server {
	return ca.serve("ntfy", m, func(s *Server, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodPut {
			s.refuse(w, http.StatusMethodNotAllowed, `{"code":40501,"http":405,"error":"method not allowed"}`, "method "+r.Method)
			return
		}
		if !ntfyTopic.MatchString(r.URL.Path) {
			s.refuse(w, http.StatusNotFound, `{"code":40401,"http":404,"error":"page not found"}`, "topic")
			return
		}
		auth := r.Header.Get("Authorization")
		if token != "" {
			switch auth {
			case "Bearer " + token:
			case "":
				s.refuse(w, http.StatusForbidden, `{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}`, "no token")
				return
			default:
				s.refuse(w, http.StatusUnauthorized, `{"code":40101,"http":401,"error":"unauthorized","link":"https://ntfy.sh/docs/publish/#authentication"}`, "wrong token")
				return
			}
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			s.refuse(w, http.StatusBadRequest, `{"code":40000,"http":400,"error":"bad request"}`, "body")
			return
		}
		var dec mime.WordDecoder
		header := func(names ...string) string {
			for _, n := range names {
				if v := r.Header.Get(n); v != "" {
					if d, err := dec.DecodeHeader(v); err == nil {
						return d
					}
					return v
				}
			}
			return ""
		}
		prio := header("X-Priority", "Priority", "prio", "p")
		switch prio {
		case "", "1", "2", "3", "4", "5", "min", "low", "default", "high", "max", "urgent":
		default:
			s.refuse(w, http.StatusBadRequest, `{"code":40007,"http":400,"error":"invalid priority"}`, "priority "+prio)
			return
		}
		if !utf8.Valid(body) {
			s.refuse(w, http.StatusBadRequest, `{"code":40000,"http":400,"error":"message is not UTF-8 (an attachment?)"}`, "binary")
			return
		}
		d := Delivery{Path: r.URL.Path, Auth: auth, Message: string(body), Priority: prio,
			Title: header("X-Title", "Title", "ti", "t"), Tags: header("X-Tags", "Tags", "tag", "ta"), Click: header("X-Click", "Click")}
		s.deliver(d)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "pt" + fmt.Sprint(time.Now().UnixNano()%1e9), "time": time.Now().Unix(),
			"event": "message", "topic": strings.TrimPrefix(r.URL.Path, "/"), "title": d.Title, "message": d.Message})
	})
}

// ---- Pushover ----

// Pushover serves Pushover's messages API: POST /1/messages.json with a
// form (or JSON) of token, user, message (1024 characters at most),
// title (250), url (512), url_title (100) and priority (-2 to 2; 2 needs
// retry and expire). Another token or user key is a 400 with status 0
// and the errors, as Pushover answers.
func (ca *CA) Pushover(token, user string, m Mode) *Server {
	return ca.serve("pushover", m, func(s *Server, w http.ResponseWriter, r *http.Request) {
		rid := fmt.Sprintf("%08x-pt", time.Now().UnixNano()&0xffffffff)
		fail := func(field, msg string) {
			b, _ := json.Marshal(map[string]any{field: "invalid", "errors": []string{msg}, "status": 0, "request": rid})
			s.refuse(w, http.StatusBadRequest, string(b), field)
		}
		if r.Method != http.MethodPost || r.URL.Path != "/1/messages.json" {
			s.refuse(w, http.StatusNotFound, `{"status":0,"errors":["not found"]}`, "path "+r.URL.Path)
			return
		}
		form := url.Values{}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			var m map[string]any
			if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m); err != nil {
				fail("body", "the body is not JSON")
				return
			}
			for k, v := range m {
				form.Set(k, fmt.Sprint(v))
			}
		} else {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
			if err := r.ParseForm(); err != nil {
				fail("body", "the form does not parse")
				return
			}
			form = r.PostForm
		}
		runes := func(k string) int { return utf8.RuneCountInString(form.Get(k)) }
		switch {
		case form.Get("token") != token:
			fail("token", "application token is invalid, see https://pushover.net/api")
		case form.Get("user") != user:
			fail("user", "user identifier is not a valid user, group, or subscribed user key, see https://pushover.net/api#identifiers")
		case strings.TrimSpace(form.Get("message")) == "":
			fail("message", "message cannot be blank")
		case runes("message") > 1024:
			fail("message", "message is too long (1024 characters at most)")
		case runes("title") > 250:
			fail("title", "title is too long (250 characters at most)")
		case runes("url") > 512:
			fail("url", "url is too long (512 characters at most)")
		case runes("url_title") > 100:
			fail("url_title", "url_title is too long (100 characters at most)")
		default:
			switch p := form.Get("priority"); p {
			case "", "-2", "-1", "0", "1":
			case "2":
				if form.Get("retry") == "" || form.Get("expire") == "" {
					fail("retry", "retry and expire are required with priority 2")
					return
				}
			default:
				fail("priority", "priority is invalid (-2 to 2)")
				return
			}
			s.deliver(Delivery{Path: r.URL.Path, Form: form, Title: form.Get("title"), Message: form.Get("message"),
				Priority: form.Get("priority"), Click: form.Get("url")})
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Limit-App-Limit", "10000")
			w.Header().Set("X-Limit-App-Remaining", "9999")
			fmt.Fprintf(w, `{"status":1,"request":%q}`, rid)
		}
	})
}

// ---- webhook ----

// Webhook takes tuios's webhook body: a JSON POST whose event is
// tuios.inbox. With token set it must carry "Authorization: Bearer
// TOKEN" (401 otherwise).
func (ca *CA) Webhook(token string, m Mode) *Server {
	return ca.serve("webhook", m, func(s *Server, w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if token != "" && auth != "Bearer "+token {
			s.refuse(w, http.StatusUnauthorized, `{"error":"unauthorized"}`, "token")
			return
		}
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			s.refuse(w, http.StatusUnsupportedMediaType, `{"error":"a JSON POST"}`, "content type")
			return
		}
		var body map[string]any
		dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
		if err := dec.Decode(&body); err != nil || body["event"] != "tuios.inbox" {
			s.refuse(w, http.StatusBadRequest, `{"error":"not a tuios.inbox event"}`, "body")
			return
		}
		str := func(k string) string { v, _ := body[k].(string); return v }
		s.deliver(Delivery{Path: r.URL.Path, Auth: auth, JSON: body, Title: str("title"), Message: str("body"), Click: str("link")})
		w.WriteHeader(http.StatusNoContent)
	})
}
