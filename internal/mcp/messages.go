package mcp

import "encoding/json"

// The MCP messages whose shape is fixed. What stays open is open by the
// spec: a tool's arguments until they are decoded into its verb's params,
// and a verb's result, which is relayed as the daemon sent it.

// implementation names this server: serverInfo, and the stateless
// revision's _meta.
type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Version string `json:"version"`
}

// capabilitySet is what the server offers: tools (a list that does not
// change while it runs), and empty resource and prompt lists.
type capabilitySet struct {
	Tools     toolsCapability `json:"tools"`
	Resources struct{}        `json:"resources"`
	Prompts   struct{}        `json:"prompts"`
}

type toolsCapability struct {
	ListChanged bool `json:"listChanged"`
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    capabilitySet  `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions"`
}

// stateless holds the members a result of the stateless revision carries
// besides its own (complete fills them); under the handshake versions
// they are empty and left out.
type stateless struct {
	ResultType string      `json:"resultType,omitempty"`
	Meta       *resultMeta `json:"_meta,omitempty"`
	TTLMs      int         `json:"ttlMs,omitempty"`
	CacheScope string      `json:"cacheScope,omitempty"`
}

func (s *stateless) completion() *stateless { return s }

// completable is a result complete can finish.
type completable interface{ completion() *stateless }

// resultMeta is a stateless result's _meta: the server's name and
// version under io.modelcontextprotocol/serverInfo.
type resultMeta struct {
	ServerInfo implementation `json:"io.modelcontextprotocol/serverInfo"`
}

type discoverResult struct {
	SupportedVersions []string      `json:"supportedVersions"`
	Capabilities      capabilitySet `json:"capabilities"`
	Instructions      string        `json:"instructions"`
	stateless
}

type toolList struct {
	Tools []toolEntry `json:"tools"`
	stateless
}

// resourceList, templateList and promptList are always empty: this
// server has no resources nor prompts.
type resourceList struct {
	Resources []struct{} `json:"resources"`
	stateless
}

type templateList struct {
	ResourceTemplates []struct{} `json:"resourceTemplates"`
	stateless
}

type promptList struct {
	Prompts []struct{} `json:"prompts"`
	stateless
}

// callResult is a tools/call result: text for the model and, from
// 2025-06-18, the structured result (the verb's, or an errorResult).
type callResult struct {
	Content           []content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
	stateless
}

// content is a text content block, the only kind this server sends.
type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func textContent(text string) []content { return []content{{Type: "text", Text: text}} }

// errorResult is a failed call's structuredContent.
type errorResult struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// versionsData is the data of an error about the protocol version.
type versionsData struct {
	Supported []string `json:"supported"`
	Requested *string  `json:"requested,omitempty"`
}

// notification is a JSON-RPC notification the server sends.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

func notify(method string, params any) notification {
	return notification{JSONRPC: "2.0", Method: method, Params: params}
}

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      int64           `json:"progress"`
	Total         int64           `json:"total,omitempty"`
	Message       string          `json:"message"`
}

type cancelledParams struct {
	RequestID json.RawMessage `json:"requestId"`
	Reason    string          `json:"reason"`
}

// acknowledgedParams acknowledges a subscriptions/listen, honouring no
// notification type.
type acknowledgedParams struct {
	Meta struct {
		SubscriptionID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
	} `json:"_meta"`
	Notifications struct{} `json:"notifications"`
}

// toolEntry is one tool in tools/list.
type toolEntry struct {
	Name         string      `json:"name"`
	Title        string      `json:"title"`
	Description  string      `json:"description"`
	InputSchema  inputSchema `json:"inputSchema"`
	OutputSchema *schema     `json:"outputSchema,omitempty"`
	Annotations  annotations `json:"annotations"`
}

// annotations are a tool's hints; destructive and idempotent are said
// only of a tool that changes something.
type annotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
}

// inputSchema is a tool's arguments: an object of the named properties
// only (properties is there even when empty).
type inputSchema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties bool               `json:"additionalProperties"`
}

func objectOf(props map[string]*schema, required []string) inputSchema {
	return inputSchema{Type: "object", Properties: props, Required: required}
}

// schema is the part of JSON Schema the tools use.
type schema struct {
	Type        string             `json:"type"`
	Description string             `json:"description,omitempty"`
	Properties  map[string]*schema `json:"properties,omitempty"`
	Required    []string           `json:"required,omitempty"`
	Items       *schema            `json:"items,omitempty"`
	Enum        []string           `json:"enum,omitempty"`
	Default     any                `json:"default,omitempty"`
	Minimum     *int64             `json:"minimum,omitempty"`
	Maximum     *int64             `json:"maximum,omitempty"`
	MaxLength   int                `json:"maxLength,omitempty"`
	MaxItems    int                `json:"maxItems,omitempty"`
}
