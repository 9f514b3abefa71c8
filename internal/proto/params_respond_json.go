package proto

import "encoding/json"

// The params of attach, peek-prompt and respond are sent the way every
// other params type is (omitempty on each of its tags): only what the
// client set, so a daemon of another version (a linked host's) is never
// sent an empty param it may not know, such as attach's prefix. Their
// tags stay as they are because they are the verbs' schema.

// MarshalJSON leaves out the params that are not set; a cols or rows
// set to 0 is sent.
func (p AttachParams) MarshalJSON() ([]byte, error) {
	type sparse struct {
		Client   string `json:"client,omitempty"`
		Session  string `json:"session,omitempty"`
		Stream   bool   `json:"stream,omitempty"`
		Cols     *int   `json:"cols,omitempty"`
		Rows     *int   `json:"rows,omitempty"`
		Prefix   string `json:"prefix,omitempty"`
		Presence bool   `json:"presence,omitempty"`
	}
	return json.Marshal(sparse(p))
}

// MarshalJSON leaves out the params that are not set.
func (p PeekPromptParams) MarshalJSON() ([]byte, error) {
	type sparse struct {
		Session string `json:"session,omitempty"`
		Window  string `json:"window,omitempty"`
	}
	return json.Marshal(sparse(p))
}

// MarshalJSON leaves out the params that are not set.
func (p RespondParams) MarshalJSON() ([]byte, error) {
	type sparse struct {
		Session    string   `json:"session,omitempty"`
		Window     string   `json:"window,omitempty"`
		Action     string   `json:"action,omitempty"`
		Value      string   `json:"value,omitempty"`
		PromptID   string   `json:"prompt_id,omitempty"`
		HumanNonce string   `json:"human_nonce,omitempty"`
		Timeout    int      `json:"timeout,omitempty"`
		RiskAck    []string `json:"risk_ack,omitempty"`
	}
	return json.Marshal(sparse(p))
}
