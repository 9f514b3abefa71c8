package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// TestFuzzVerbTable throws random verbs with random params (right and
// wrong types, huge and negative numbers, long and odd strings, unknown
// params, garbage lines) at a running daemon. It must never crash, never
// answer internal (a recovered panic), and still answer afterwards.
// TUIOS_FUZZ_VERBS sets the number of requests (default 6000) and
// TUIOS_FUZZ_SEED the seed.
func TestFuzzVerbTable(t *testing.T) {
	t.Parallel()
	var logMu sync.Mutex
	var panics []string
	_, sock := serverWith(t, func(o *Options) {
		o.Logf = func(f string, a ...any) {
			if strings.HasPrefix(f, "panic") {
				logMu.Lock()
				panics = append(panics, fmt.Sprintf(f, a...))
				logMu.Unlock()
			}
		}
	})
	n := 6000
	if v, err := strconv.Atoi(os.Getenv("TUIOS_FUZZ_VERBS")); err == nil {
		n = v
	}
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("TUIOS_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	r := dialRPC(t, sock)
	list := r.must("list-verbs", nil)
	b, _ := json.Marshal(list["verbs"])
	var verbs []proto.VerbInfo
	json.Unmarshal(b, &verbs)
	// A few real targets so that requests reach past addressing.
	r.must("new-session", map[string]any{"name": "fz"})
	r.must("new-session", map[string]any{"name": "fz2", "argv": []string{"/bin/cat"}})

	created := 0
	codes := map[string]int{}
	var c net.Conn
	var rd *bufio.Reader
	for i := 0; i < n; i++ {
		if c == nil {
			var err error
			if c, err = net.Dial("unix", sock); err != nil {
				t.Fatalf("request %d: the daemon stopped accepting: %v", i, err)
			}
			rd = bufio.NewReader(c)
		}
		line := fuzzLine(rng, verbs, &created)
		c.SetDeadline(time.Now().Add(300 * time.Millisecond))
		c.Write(append(line, '\n'))
		answer, err := rd.ReadString('\n')
		if err != nil { // a wait, or a request still typing: hang up on it
			codes["(hung up)"]++
			c.Close()
			c = nil
			continue
		}
		var resp struct {
			Error *proto.Error `json:"error"`
		}
		if json.Unmarshal([]byte(answer), &resp) != nil {
			t.Fatalf("request %d: not a response: %q", i, answer)
		}
		code := "ok"
		if resp.Error != nil {
			code = resp.Error.Code
		}
		codes[code]++
		if code == proto.CodeInternal {
			t.Errorf("request %s answered internal: %s", line, resp.Error.Message)
		}
	}
	if c != nil {
		c.Close()
	}
	t.Logf("%d requests (seed %d): %v", n, seed, codes)
	dialRPC(t, sock).must("hello", nil)
	logMu.Lock()
	defer logMu.Unlock()
	for _, p := range panics {
		t.Error(p)
	}
}

// fuzzLine is one request line: mostly a real verb with params drawn from
// its schema, sometimes garbage.
func fuzzLine(rng *rand.Rand, verbs []proto.VerbInfo, created *int) []byte {
	switch rng.Intn(20) {
	case 0:
		junk := make([]byte, rng.Intn(200))
		rng.Read(junk)
		return []byte(strings.ReplaceAll(string(junk), "\n", " "))
	case 1:
		return []byte(`{"verb":` + fuzzString(rng) + `}`)
	case 2:
		return []byte(`{"verb":"hello","params":[1,2,3]}`)
	}
	v := verbs[rng.Intn(len(verbs))]
	switch v.Verb {
	case "kill-server":
		v = verbs[0]
	case "new-session", "new-window", "run-command":
		if *created > 40 {
			v = verbs[0]
		} else {
			*created++
		}
	}
	params := map[string]any{}
	for _, p := range v.Params {
		if rng.Intn(2) == 0 {
			continue
		}
		params[p.Name] = fuzzValue(rng, p)
	}
	if rng.Intn(15) == 0 {
		params[fuzzWord(rng)] = 1
	}
	b, _ := json.Marshal(map[string]any{"id": rng.Intn(1000), "verb": v.Verb, "params": params})
	return b
}

func fuzzValue(rng *rand.Rand, p proto.Param) any {
	switch rng.Intn(12) {
	case 0:
		return int64(1) << uint(rng.Intn(63))
	case 1:
		return -rng.Int63n(1 << 40)
	case 2:
		return fuzzString(rng)
	case 3:
		return []any{1, "x", nil}
	case 4:
		return map[string]any{"a": 1}
	case 5:
		return nil
	case 6:
		return rng.Intn(2) == 0
	}
	// A plausible value of the right type.
	switch p.Type {
	case "int":
		if p.Maximum != nil && rng.Intn(2) == 0 {
			return *p.Maximum
		}
		return rng.Intn(300)
	case "bool":
		return rng.Intn(2) == 0
	case "[]string":
		return []string{fuzzWord(rng), fuzzWord(rng)}
	}
	if len(p.Accepted) > 0 && rng.Intn(2) == 0 {
		return p.Accepted[rng.Intn(len(p.Accepted))]
	}
	switch p.Name {
	case "session":
		return []string{"fz", "fz2", "nope", ""}[rng.Intn(4)]
	case "window", "to":
		return []string{"0", "1", "human", "zz", ""}[rng.Intn(5)]
	}
	return fuzzWord(rng)
}

// fuzzWord is a short printable word: typed into a shell it runs nothing
// that exists.
func fuzzWord(rng *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyzé世_-.,"
	rs := []rune(letters)
	n := 1 + rng.Intn(12)
	out := make([]rune, n)
	for i := range out {
		out[i] = rs[rng.Intn(len(rs))]
	}
	return "zq" + string(out)
}

func fuzzString(rng *rand.Rand) string {
	switch rng.Intn(5) {
	case 0:
		return strings.Repeat("a", 1+rng.Intn(70000))
	case 1:
		return "\x1b[6n\x00\xff\u202e"
	case 2:
		return ""
	}
	return fuzzWord(rng)
}
