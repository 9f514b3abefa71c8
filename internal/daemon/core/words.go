package core

import (
	"os"
	"strings"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/fuzzy"
	"github.com/tuios/tuios/internal/proto"
)

// NearestWord is the closest of names to w by edit distance (a name w is
// a prefix or a part of counts as near), for a did-you-mean hint; "" when
// none is near. The core and every feature suggest names with it.
func NearestWord(w string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		d := fuzzy.Distance(w, n)
		if strings.HasPrefix(n, w) || strings.Contains(n, w) {
			d = min(d, 2)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	if bestD > max(3, len(w)/2) {
		return ""
	}
	return best
}

// ParseSelect reads a verb's select param as every verb that takes a
// selector does (inbox.ParseSelector, ~ read as the daemon's home): a
// refusal words its code and hint as InboxError does; "" is no selector
// (nil).
func ParseSelect(text string) (*inbox.Selector, *proto.Error) {
	if text == "" {
		return nil, nil
	}
	home, _ := os.UserHomeDir()
	sel, err := inbox.ParseSelector(text, inbox.SelectorOptions{Home: home})
	if err != nil {
		return nil, InboxError(err)
	}
	return sel, nil
}
