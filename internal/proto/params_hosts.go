package proto

// LinkPeerParams are the params of link-peer.
type LinkPeerParams struct {
	Peer   string `json:"peer,omitempty" desc:"the calling machine's name (lowercased, cut at the first dot); empty: not said yet" maxlen:"256"`
	Pinned bool   `json:"pinned,omitempty" desc:"the name is pinned by authorized_keys (tuios stdio-proxy --as NAME says it); honoured only on a connection's first link-peer"`
}

// ReleaseMessageParams are the params of release-agent-message.
type ReleaseMessageParams struct {
	Session    string `json:"session,omitempty" desc:"the session holding the mail (default: whichever holds the id)" maxlen:"4096"`
	ID         int    `json:"id,omitempty" req:"true" desc:"the held message's id" min:"1" max:"9007199254740991"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the attached client's nonce: releasing is the person's act" maxlen:"256"`
}

// OpenHostParams are the params of open-host-connection.
type OpenHostParams struct {
	Host string `json:"host,omitempty" desc:"the host, as named in [hosts.NAME] (matched exactly)" required:"true" maxlen:"256"`
}

// ApplyConfigParams are the params of apply-config.
type ApplyConfigParams struct{}
