package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// TestFuzzVerbTableCallers throws random verbs with random params at the
// daemon from random callers: the person's shell, panes holding random
// grants (real processes in real panes, through relays), and another
// machine's link under the default policy. No verb may answer a caller
// its declaration excludes: a pane lacking the grants a verb declares is
// refused (forbidden, or not_human for the person's acts), a pane never
// runs a verb only the outside may, a link never a verb it lacks the
// capability for or one never served over links; a pane without admin
// never succeeds on another session, nor reports about another pane.
// Nothing answers internal. TUIOS_FUZZ_CALLERS sets the number of
// requests (default 1500), TUIOS_FUZZ_SEED the seed.
func TestFuzzVerbTableCallers(t *testing.T) {
	t.Parallel()
	_, sock := serverWith(t, func(o *Options) { o.Config = strictFile("read") })
	person := dialRPC(t, sock)
	for _, ss := range []string{"own", "other"} {
		person.must("new-session", map[string]any{"name": ss, "argv": []string{"/bin/sh", "-c", quietSleeper}})
	}
	otherPane := str(person.must("get-window", map[string]any{"session": "other", "window": "0"})["window_id"])
	ownPane := str(person.must("get-window", map[string]any{"session": "own", "window": "0"})["window_id"])
	held := []string{"none", "read", "write", "read,write", "fan", "respond", "admin", "read,write,fan,respond"}
	panes := relays(t, person, sock, "own", held)

	b, _ := json.Marshal(person.must("list-verbs", nil)["verbs"])
	var verbs []proto.VerbInfo
	json.Unmarshal(b, &verbs)
	// Verbs that would end the world the rest of the run stands on:
	// the callers' panes and sessions, their grants.
	verbs = slices.DeleteFunc(verbs, func(v proto.VerbInfo) bool {
		switch v.Verb {
		case "kill-server", "kill-session", "close-window", "set-pane-grants", "run-command":
			return true
		}
		return false
	})

	n := 1500
	if v, err := strconv.Atoi(os.Getenv("TUIOS_FUZZ_CALLERS")); err == nil {
		n = v
	}
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("TUIOS_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	linkCaps := []string{"list", "mail", "open", "write"} // the default policy
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		v := verbs[rng.Intn(len(verbs))]
		params := fuzzCallerParams(rng, v, ownPane, otherPane)
		who := []string{"person", "link", "pane", "pane", "pane"}[rng.Intn(5)]
		var g grant.Set
		var path, label string
		switch who {
		case "person":
			path, label = sock, "the person"
		case "link":
			path, label = sock, "a link"
		default:
			gs := held[rng.Intn(len(held))]
			g, _ = grant.Parse(gs)
			path, label = panes[gs].ctl, "a pane holding "+gs
			params = fillOwn(params, panes[gs].id)
		}
		want := excluded(v, who, g, linkCaps, params, otherPane)
		resp, answered := fuzzCall(t, path, who == "link", v.Verb, params, want != "")
		where := fmt.Sprintf("request %d (seed %d): %s from %s %s", i, seed, v.Verb, label, clipText(fmt.Sprint(params), 300))
		seen[who+" "+outcome(resp, answered)]++
		switch {
		case resp != nil && resp.Code == proto.CodeInternal:
			t.Errorf("%s: internal: %s", where, resp.Message)
		case want == "":
		case !answered:
			t.Errorf("%s: no answer, want %s", where, want)
		case want == "not ok":
			if resp == nil {
				t.Errorf("%s: succeeded, want a refusal (another session, another pane)", where)
			}
		case resp == nil || resp.Code != want:
			t.Errorf("%s: %v, want %s", where, resp, want)
		}
	}
	t.Logf("%d requests (seed %d): %v", n, seed, seen)
}

func outcome(e *proto.Error, answered bool) string {
	switch {
	case !answered:
		return "(hung up)"
	case e == nil:
		return "ok"
	}
	return e.Code
}

// excluded is what the declaration (list-verbs' access) and the caller
// say the answer must be: "" when the call may run, a code when it must
// be refused with it, "not ok" when it must not succeed.
func excluded(v proto.VerbInfo, who string, g grant.Set, linkCaps []string, params map[string]any, otherPane string) string {
	a := v.Access
	switch who {
	case "link":
		if a.Local {
			return proto.CodeForbidden
		}
		for _, c := range a.Link {
			if !slices.Contains(linkCaps, c) {
				return proto.CodeForbidden
			}
		}
		return ""
	case "pane":
		need, _ := grant.ParseWords(a.Grants)
		if len(a.Grants) == 0 {
			need = grant.None
		}
		switch a.Caller {
		case "outside_panes":
			return proto.CodeForbidden
		case "person":
			if need == grant.None || !g.Has(need) {
				return codeNotHuman
			}
		case "granted":
			if !g.Has(need) {
				return proto.CodeForbidden
			}
		}
		if !g.Has(grant.Admin) && (params["session"] == "other" || params["window"] == otherPane || params["to"] == otherPane) {
			return "not ok"
		}
		if a.Caller == "own_pane" && params["window"] == otherPane {
			return "not ok"
		}
	}
	return ""
}

// fuzzCallerParams draws params from the verb's schema, naming the two
// sessions and their panes often, with short waits.
func fuzzCallerParams(rng *rand.Rand, v proto.VerbInfo, ownPane, otherPane string) map[string]any {
	params := map[string]any{}
	for _, p := range v.Params {
		if rng.Intn(2) == 0 {
			continue
		}
		switch p.Name {
		case "session":
			params[p.Name] = []string{"own", "other", "nope"}[rng.Intn(3)]
		case "window", "to":
			params[p.Name] = []string{ownPane, otherPane, "0", "human", "self"}[rng.Intn(5)]
		case "timeout", "ready_timeout", "wait_ms":
			params[p.Name] = 1 + rng.Intn(100)
		default:
			params[p.Name] = fuzzValue(rng, p)
		}
	}
	return params
}

// fillOwn puts the caller's own pane where the draw said "self".
func fillOwn(params map[string]any, own string) map[string]any {
	for k, v := range params {
		if v == "self" {
			params[k] = own
		}
	}
	return params
}

// fuzzCall makes one request on a fresh connection (a link says link-peer
// first); a call that must be refused gets the failure guard to answer,
// any other is hung up on after half a second (it may wait or type).
func fuzzCall(t *testing.T, path string, link bool, verb string, params map[string]any, mustAnswer bool) (*proto.Error, bool) {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	defer c.Close()
	rd := bufio.NewReader(c)
	if link {
		c.SetDeadline(time.Now().Add(guard))
		c.Write([]byte(`{"verb":"link-peer","params":{"peer":"far"}}` + "\n"))
		if _, err := rd.ReadString('\n'); err != nil {
			t.Fatalf("link-peer: %v", err)
		}
	}
	wait := 500 * time.Millisecond
	if mustAnswer {
		wait = guard
	}
	c.SetDeadline(time.Now().Add(wait))
	b, _ := json.Marshal(map[string]any{"id": 1, "verb": verb, "params": params})
	c.Write(append(b, '\n'))
	line, err := rd.ReadString('\n')
	if err != nil {
		return nil, false
	}
	var resp struct {
		Error *proto.Error `json:"error"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(line)), &resp) != nil {
		t.Fatalf("%s: not a response: %q", verb, line)
	}
	return resp.Error, true
}
