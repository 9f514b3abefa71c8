package push

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/config"
)

// Provider is one destination of [notify]: ntfy, pushover or webhook.
// Its address and secrets stay inside; Name and Host are all it shows.
type Provider struct {
	// Name is ntfy, pushover or webhook.
	Name string
	// Host is the address's host (ntfy.sh, api.pushover.net): the only
	// part of the address ever shown, since the rest may be a secret (an
	// ntfy topic, a webhook's path).
	Host string

	url      string
	priority int // ntfy: 0 by the item
	token    config.SecretSource
	user     config.SecretSource // pushover
}

// Providers are the providers settings name, in the order ntfy,
// pushover, webhook.
func Providers(s config.PushSettings) []Provider {
	var out []Provider
	if n := s.Ntfy; n != nil {
		out = append(out, Provider{Name: "ntfy", Host: hostOf(n.URL), url: n.URL, priority: n.Priority, token: n.Token})
	}
	if p := s.Pushover; p != nil {
		out = append(out, Provider{Name: "pushover", Host: hostOf(p.URL), url: p.URL, token: p.Token, user: p.User})
	}
	if w := s.Webhook; w != nil {
		out = append(out, Provider{Name: "webhook", Host: hostOf(w.URL), url: w.URL, token: w.Token})
	}
	return out
}

// String is how a provider is named in lines and logs: ntfy (ntfy.sh).
func (p Provider) String() string { return p.Name + " (" + p.Host + ")" }

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "?"
	}
	h := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" {
		return clean(h, 253) + ":" + port
	}
	return clean(h, 253)
}

// secrets are one send's secrets, read just before it.
type secrets struct {
	token, user string
}

func (s secrets) masker() masker { return masker{s.token, s.user} }

// readSecrets reads the provider's secrets from their sources now. The
// address counts as one (an ntfy topic, a webhook's path): it is masked
// too.
func (p Provider) readSecrets(r secretReader) (secrets, error) {
	var s secrets
	var err error
	if s.token, err = r.read("notify."+p.Name+".token", p.token); err != nil {
		return s, err
	}
	if p.Name == "pushover" {
		if s.user, err = r.read("notify.pushover.user", p.user); err != nil {
			return s, err
		}
		if s.user == "" || s.token == "" {
			return s, fmt.Errorf("notify.pushover needs both a user key and an application token")
		}
	}
	return s, nil
}

// request builds the provider's HTTP request for n.
func (p Provider) request(n Notification, s secrets, userAgent string) (*http.Request, error) {
	var req *http.Request
	var err error
	switch p.Name {
	case "ntfy":
		req, err = p.ntfyRequest(n, s)
	case "pushover":
		req, err = p.pushoverRequest(n, s)
	case "webhook":
		req, err = p.webhookRequest(n, s)
	default:
		return nil, fmt.Errorf("unknown provider")
	}
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	return req, nil
}

// ntfyRequest is ntfy's publish API: POST to the topic's address, the
// message as the body, the title, priority, tags and click link as
// headers, an access token as Bearer authorization.
func (p Provider) ntfyRequest(n Notification, s secrets) (*http.Request, error) {
	body, title := n.Body, n.Title
	if body == "" { // content = "title": the title is the message
		body, title = n.Title, "tuios"
	}
	req, err := http.NewRequest(http.MethodPost, p.url, strings.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("notify.ntfy.url is not an address")
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Title", headerText(title))
	prio := p.priority
	if prio == 0 {
		prio = 3
		if n.Urgent {
			prio = 4
		}
	}
	req.Header.Set("Priority", strconv.Itoa(prio))
	tags := "tuios"
	if n.Kind != "" && isWord(n.Kind) {
		tags += "," + n.Kind
	}
	req.Header.Set("Tags", tags)
	if n.Link != "" {
		req.Header.Set("Click", n.Link)
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	return req, nil
}

// pushoverRequest is Pushover's messages API: a form POST with the
// application token, the user key, the message, its title, a link and a
// priority (1, high, for items that wait for the person; 0 otherwise).
func (p Provider) pushoverRequest(n Notification, s secrets) (*http.Request, error) {
	form := url.Values{}
	form.Set("token", s.token)
	form.Set("user", s.user)
	msg := n.Body
	if msg == "" {
		msg = n.Title
	} else {
		form.Set("title", clipRunes(n.Title, maxTitle))
	}
	form.Set("message", clipRunes(msg, maxBody))
	if n.Link != "" {
		form.Set("url", n.Link)
		form.Set("url_title", "Open in the Inbox")
	}
	prio := "0"
	if n.Urgent {
		prio = "1"
	}
	form.Set("priority", prio)
	req, err := http.NewRequest(http.MethodPost, p.url, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("notify.pushover.url is not an address")
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req, nil
}

// WebhookBody is the JSON a webhook receives.
type WebhookBody struct {
	Event   string `json:"event"` // always "tuios.inbox"
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Body    string `json:"body"`
	Link    string `json:"link"`
	Urgent  bool   `json:"urgent"`
	ItemID  string `json:"item_id"`
	Session string `json:"session"`
	Window  string `json:"window"`
	Harness string `json:"harness"`
	Test    bool   `json:"test"`
}

// webhookRequest POSTs WebhookBody, the token as Bearer authorization.
func (p Provider) webhookRequest(n Notification, s secrets) (*http.Request, error) {
	b, err := json.Marshal(WebhookBody{Event: "tuios.inbox", Kind: n.Kind, Title: n.Title, Body: n.Body, Link: n.Link,
		Urgent: n.Urgent, ItemID: n.ItemID, Session: n.Session, Window: n.Window, Harness: n.Harness, Test: n.Test})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("notify.webhook.url is not an address")
	}
	req.Header.Set("Content-Type", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	return req, nil
}

// headerText makes s a header value: one line, RFC 2047 encoded when it
// is not ASCII (ntfy decodes it).
func headerText(s string) string {
	s = clean(s, maxTitle*4)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return mime.BEncoding.Encode("UTF-8", s)
		}
	}
	return s
}

func isWord(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return false
		}
	}
	return s != ""
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// answerError reads a provider's answer: nil for a delivery, else what
// went wrong, in words safe to show (secrets masked, the server's words
// cleaned, clipped and quoted as what the server says).
func answerError(provider string, status int, body []byte, m masker) error {
	ok := status >= 200 && status < 300
	var says string
	switch provider {
	case "ntfy":
		var e struct {
			Error string `json:"error"`
		}
		if !ok && json.Unmarshal(body, &e) == nil {
			says = e.Error
		}
	case "pushover":
		var r struct {
			Status *int     `json:"status"`
			Errors []string `json:"errors"`
		}
		err := json.Unmarshal(body, &r)
		if ok && (err != nil || r.Status == nil || *r.Status != 1) {
			if err == nil && len(r.Errors) > 0 {
				return &SendError{Msg: "the server did not take it: " + quoteServer(strings.Join(r.Errors, "; "), m)}
			}
			return &SendError{Msg: "the server's answer is not Pushover's (no status 1): is notify.pushover.url a Pushover relay?"}
		}
		if err == nil {
			says = strings.Join(r.Errors, "; ")
		}
	}
	if ok {
		return nil
	}
	msg := "the server answered " + statusText(status)
	if says != "" {
		msg += " (" + quoteServer(says, m) + ")"
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		msg += ". Check the token"
		if provider == "pushover" {
			msg += " and the user key"
		}
	case http.StatusTooManyRequests:
		msg += ". The provider limits how often you send"
	case http.StatusNotFound:
		msg += ". Check the address"
	}
	return &SendError{Msg: msg + ".", Status: status}
}

// quoteServer is a server's words, as data: one clean line, clipped,
// every secret masked, quoted.
func quoteServer(s string, m masker) string {
	return "the server says " + strconv.Quote(clean(m.mask(s), 200))
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}
