package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// The verb reference in docs/protocol.md is generated from the same params
// structs that list-verbs describes and that validate every request, so
// the document cannot drift from the daemon. Regenerate it with
//
//	TUIOS_UPDATE_DOCS=1 go test ./internal/daemon -run TestProtocolDocIsCurrent
const (
	protocolDoc = "../../docs/protocol.md"
	beginMark   = "<!-- generated: verbs -->"
	endMark     = "<!-- end generated -->"
)

func TestProtocolDocIsCurrent(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	raw := r.must("list-verbs", nil)
	b, _ := json.Marshal(raw)
	var list proto.VerbList
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	gen := renderVerbs(list)
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), beginMark)
	_, after, ok2 := strings.Cut(rest, endMark)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the %s … %s markers", protocolDoc, beginMark, endMark)
	}
	want := before + beginMark + "\n" + gen + endMark + after
	if want == string(doc) {
		return
	}
	if os.Getenv("TUIOS_UPDATE_DOCS") != "" {
		if err := os.WriteFile(protocolDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s is out of date with list-verbs; regenerate it with TUIOS_UPDATE_DOCS=1 go test ./internal/daemon -run TestProtocolDocIsCurrent", protocolDoc)
}

func renderVerbs(list proto.VerbList) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Error codes\n\n| Code | Meaning |\n| --- | --- |\n")
	for _, c := range list.ErrorCodes {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Code, cell(c.Description))
	}
	verbs := append([]proto.VerbInfo(nil), list.Verbs...)
	sort.Slice(verbs, func(i, j int) bool { return verbs[i].Verb < verbs[j].Verb })
	fmt.Fprintf(&b, "\n### Verbs\n\n%d verbs. Every int is refused with `invalid_params` outside its bounds; 0 or absent takes the default.\n", len(verbs))
	for _, v := range verbs {
		desc := strings.TrimSpace(v.Description)
		if !strings.HasSuffix(desc, ".") {
			desc += "."
		}
		fmt.Fprintf(&b, "\n#### `%s`\n\n%s Returns `%s`.\n", v.Verb, desc, v.Returns)
		if a := v.Access; a != nil {
			fmt.Fprintf(&b, "\nWho may call it: %s.\n", whoText(*a))
		}
		if len(v.Params) > 0 {
			fmt.Fprintf(&b, "\n| Param | Type | Required | Bounds / accepted | Default | Description |\n| --- | --- | --- | --- | --- | --- |\n")
			for _, p := range v.Params {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", p.Name, p.Type, required(p), bounds(p), deflt(p), cell(p.Description))
			}
		}
		for _, ex := range v.Examples {
			fmt.Fprintf(&b, "\n    %s\n", ex)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// whoText is a verb's declaration in words, for the reference.
func whoText(a proto.VerbAccess) string {
	grants := strings.Join(a.Grants, " and ")
	var who string
	switch a.Caller {
	case "anyone":
		who = "any caller"
	case "granted":
		who = "the person, or a pane holding " + grants + " (another session: admin)"
	case "own_pane":
		who = "the person, or a pane about its own pane"
	case "person":
		who = "the person only"
		if grants != "" {
			who += ", or a pane holding " + grants
		}
	case "outside_panes":
		who = "only a terminal outside every pane"
	}
	switch {
	case a.Local:
		who += "; never over a link"
	case len(a.Link) == 0:
		who += "; over a link, with no capability"
	default:
		who += "; over a link, with " + strings.Join(a.Link, " and ")
	}
	if a.TypesIntoPanes {
		who += "; it types into a pane"
	}
	return who
}

func required(p proto.Param) string {
	if p.Required {
		return "yes"
	}
	var when []string
	for k, vs := range p.RequiredWhen {
		when = append(when, fmt.Sprintf("when `%s` is %s", k, strings.Join(vs, " or ")))
	}
	sort.Strings(when)
	return strings.Join(when, "; ")
}

func bounds(p proto.Param) string {
	var parts []string
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		parts = append(parts, fmt.Sprintf("%d–%d", *p.Minimum, *p.Maximum))
	case p.Minimum != nil:
		parts = append(parts, fmt.Sprintf("≥ %d", *p.Minimum))
	case p.Maximum != nil:
		parts = append(parts, fmt.Sprintf("≤ %d", *p.Maximum))
	}
	if p.MaxLength > 0 {
		unit := "bytes"
		if strings.HasPrefix(p.Type, "[]") {
			unit = "entries"
		}
		parts = append(parts, fmt.Sprintf("at most %d %s", p.MaxLength, unit))
	}
	if len(p.Accepted) > 0 {
		parts = append(parts, strings.Join(p.Accepted, ", "))
	}
	return cell(strings.Join(parts, "; "))
}

func deflt(p proto.Param) string {
	if p.Default == nil {
		return ""
	}
	return cell(fmt.Sprint(p.Default))
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
