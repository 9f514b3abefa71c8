package acp

import (
	"encoding/json"
	"strings"
)

// ProtocolVersion is the ACP version this client speaks.
const ProtocolVersion = 1

type clientInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type fsCaps struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

type clientCaps struct {
	FS       fsCaps `json:"fs"`
	Terminal bool   `json:"terminal"`
}

type initializeParams struct {
	ProtocolVersion    int        `json:"protocolVersion"`
	ClientCapabilities clientCaps `json:"clientCapabilities"`
	ClientInfo         clientInfo `json:"clientInfo"`
}

type authMethod struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type initializeResult struct {
	ProtocolVersion int          `json:"protocolVersion"`
	AuthMethods     []authMethod `json:"authMethods"`
	AgentInfo       *clientInfo  `json:"agentInfo"`
}

type newSessionParams struct {
	Cwd        string `json:"cwd"`
	MCPServers []any  `json:"mcpServers"`
}

type newSessionResult struct {
	SessionID string `json:"sessionId"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type promptParams struct {
	SessionID string      `json:"sessionId"`
	Prompt    []textBlock `json:"prompt"`
}

type promptResult struct {
	StopReason string `json:"stopReason"`
}

type sessionIDParams struct {
	SessionID string `json:"sessionId"`
}

// contentBlock is the part of a ContentBlock drawn: text, or the name of
// what is not text.
type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URI  string `json:"uri"`
}

func (c contentBlock) String() string {
	switch c.Type {
	case "text":
		return c.Text
	case "resource_link", "resource":
		return "[" + c.Type + " " + c.URI + "]"
	case "":
		return ""
	}
	return "[" + c.Type + "]"
}

// toolContent is one entry of a tool call's content.
type toolContent struct {
	Type    string       `json:"type"` // content, diff, terminal
	Content contentBlock `json:"content"`
	Path    string       `json:"path"`
}

type location struct {
	Path string `json:"path"`
}

// toolCall is a tool_call, a tool_call_update, or a permission request's
// toolCall: every field but the id may be missing.
type toolCall struct {
	ToolCallID string          `json:"toolCallId"`
	Title      *string         `json:"title"`
	Kind       *string         `json:"kind"`
	Status     *string         `json:"status"`
	Content    []toolContent   `json:"content"`
	Locations  []location      `json:"locations"`
	RawInput   json.RawMessage `json:"rawInput"`
}

type planEntry struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// sessionUpdate is the update member of session/update, every variant's
// fields side by side (the discriminator says which are meant).
type sessionUpdate struct {
	SessionUpdate string       `json:"sessionUpdate"`
	MessageID     string       `json:"messageId"`
	Content       contentBlock `json:"-"`
	toolCall
	Entries []planEntry `json:"entries"`
}

// UnmarshalJSON reads content as a ContentBlock for the message chunks
// and as a tool call's content list for the tool updates: one name, two
// shapes.
func (u *sessionUpdate) UnmarshalJSON(b []byte) error {
	type plain sessionUpdate
	var raw struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*u = sessionUpdate(raw.plain)
	if len(raw.Content) == 0 {
		return nil
	}
	if strings.HasSuffix(u.SessionUpdate, "_chunk") {
		return json.Unmarshal(raw.Content, &u.Content)
	}
	if u.SessionUpdate == "tool_call" || u.SessionUpdate == "tool_call_update" {
		var tc []toolContent
		if json.Unmarshal(raw.Content, &tc) == nil {
			u.toolCall.Content = tc
		}
	}
	return nil
}

type updateParams struct {
	SessionID string        `json:"sessionId"`
	Update    sessionUpdate `json:"update"`
}

type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"` // allow_once, allow_always, reject_once, reject_always
}

type permissionParams struct {
	SessionID string             `json:"sessionId"`
	ToolCall  toolCall           `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

type permissionOutcome struct {
	Outcome  string `json:"outcome"` // selected, cancelled
	OptionID string `json:"optionId,omitempty"`
}

type permissionResult struct {
	Outcome permissionOutcome `json:"outcome"`
}

// Error codes ACP names.
const codeAuthRequired = -32000
