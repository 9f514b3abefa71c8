package links

import (
	"strings"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/mail"
)

// MaxPeerName bounds the name a link that comes in claims (link-peer):
// it travels into mail as origin_host.
const MaxPeerName = mail.MaxOriginHost

// PeerName normalises a claimed name: lowercased, up to the first dot.
// ok is false for a name no host could have.
func PeerName(raw string) (string, bool) {
	name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(raw)), ".")
	if name == "" {
		return "", raw == ""
	}
	if len(name) > MaxPeerName || !hosts.ValidName(name) || name == "local" {
		return "", false
	}
	return name, true
}
