package links

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
)

// The zero Policy is the built-in default (list, mail, open, write);
// Apply replaces it whole, a name's table over "*", and Check names what
// is missing and where to allow it.
func TestPolicyDefaultApplyAndCheck(t *testing.T) {
	t.Parallel()
	var p Policy
	if !p.Allows("build", core.CapList|core.CapMail|core.CapOpen|core.CapWrite) || p.Allows("build", core.CapRespond) {
		t.Fatalf("default allows %v", p.For("build").Allow)
	}
	if err := p.Check("build", "respond", core.CapRespond, true); err == nil || !strings.Contains(err.Message, "host build may not call respond here: it needs the respond capability (allowed: list, mail, open, write, from default)") ||
		!strings.Contains(err.Hint.Detail, `add "respond" to allow under [hosts.build]`) {
		t.Fatalf("respond by default: %+v", err)
	}
	if err := p.Check("", "kill-server", core.CapLocal, false); err == nil || err.Message != "kill-server is refused over links" {
		t.Fatalf("a local verb: %+v", err)
	}
	if err := p.Check("", "ask-human", core.CapLocal, false); err == nil || !strings.Contains(err.Hint.Detail, "send mail to human") {
		t.Fatalf("ask-human: %+v", err)
	}
	var warned []string
	none := []string{}
	p.Apply(&config.File{Hosts: map[string]config.Host{"*": {Allow: &[]string{"list", "bogus"}}, "lab": {Allow: &none}}},
		func(format string, args ...any) { warned = append(warned, fmt.Sprintf(format, args...)) })
	if len(warned) != 1 || !strings.Contains(warned[0], `unknown capabilities ["bogus"]`) {
		t.Fatalf("warned %q", warned)
	}
	if err := p.Check("", "send-agent-message", core.CapMail, true); err == nil || !strings.Contains(err.Message, `this link may not call send-agent-message here: it needs the mail capability (allowed: list, from hosts."*")`) ||
		!strings.Contains(err.Hint.Detail, `under [hosts."*"]`) {
		t.Fatalf("narrowed star: %+v", err)
	}
	if err := p.Check("lab", "list-sessions", core.CapList, true); err == nil || !strings.Contains(err.Message, "(allowed: nothing, from hosts.lab)") {
		t.Fatalf("allow = []: %+v", err)
	}
	if err := p.Check("gpu", "list-sessions", core.CapList, true); err != nil {
		t.Fatalf("list under star: %v", err)
	}
	p.Apply(nil, nil)
	if !p.Allows("lab", core.CapWrite) {
		t.Fatal("Apply(nil) did not bring the default back")
	}
}
