package mcp

import (
	"encoding/json"
	"slices"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

// SupportedVersions are the MCP protocol versions this server speaks,
// newest first: server/discover lists them, and so does the error for a
// version not among them.
var SupportedVersions = []string{modernVersion, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// modernVersion is the stateless revision: no initialize; every request
// names its version and the client's capabilities in its _meta.
const modernVersion = "2026-07-28"

// fallbackVersion is what initialize answers a client asking for a
// version it does not speak (initialize is the handshake of the versions
// before the stateless one, so 2026-07-28 is never its answer), and what
// a request with neither an initialize before it nor a version of its own
// is served under.
const fallbackVersion = "2025-11-25"

// The _meta keys of the stateless revision (serverInfo is resultMeta's).
const (
	metaVersion = "io.modelcontextprotocol/protocolVersion"
	metaCaps    = "io.modelcontextprotocol/clientCapabilities"
)

// codeUnsupportedVersion is UnsupportedProtocolVersionError (2026-07-28).
const codeUnsupportedVersion = -32022

// request is what one request is served under.
type reqInfo struct {
	// version is the protocol version: the request's own (_meta), else
	// the one initialize settled, else fallbackVersion.
	version string
	// modern: the stateless revision. Results carry resultType and the
	// server's identity in _meta; ping and initialize are not methods.
	modern bool
	// progress is the request's _meta.progressToken (a JSON string or
	// number), nil when it asked for no progress.
	progress json.RawMessage
}

// structured says whether results carry structuredContent and tools an
// outputSchema: from 2025-06-18 on (the versions are dates, so they sort
// as strings).
func (ri reqInfo) structured() bool { return ri.version >= "2025-06-18" }

// requestInfo reads a request's _meta. A request that names a version in
// _meta is served under it, whatever initialize said: 2026-07-28 needs
// the client's capabilities beside it (a request without them is invalid
// params), an earlier supported version is served as that version, and
// any other is UnsupportedProtocolVersionError listing the supported
// ones. A request without a version is served under the version
// initialize settled; server/discover always needs one.
func (s *Server) requestInfo(r *request) (reqInfo, *rpcError) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(r.Params) > 0 && r.Params[0] == '{' {
		if err := json.Unmarshal(r.Params, &p); err != nil {
			return reqInfo{}, &rpcError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + err.Error()}
		}
	}
	var ri reqInfo
	if tok := p.Meta["progressToken"]; len(tok) > 0 && (tok[0] == '"' || tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9') {
		ri.progress = tok
	}
	raw, named := p.Meta[metaVersion]
	if !named {
		if r.Method == "server/discover" {
			return ri, &rpcError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: server/discover needs _meta." + metaVersion,
				Data: versionsData{Supported: SupportedVersions}}
		}
		s.mu.Lock()
		ri.version = s.version
		s.mu.Unlock()
		if ri.version == "" {
			ri.version = fallbackVersion
		}
		return ri, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return ri, &rpcError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: _meta." + metaVersion + " must be a string"}
	}
	if !slices.Contains(SupportedVersions, v) {
		return ri, &rpcError{Code: codeUnsupportedVersion, Message: "Unsupported protocol version",
			Data: versionsData{Supported: SupportedVersions, Requested: &v}}
	}
	ri.version, ri.modern = v, v == modernVersion
	if ri.modern {
		var caps map[string]json.RawMessage
		if c := p.Meta[metaCaps]; len(c) == 0 || json.Unmarshal(c, &caps) != nil || caps == nil {
			return ri, &rpcError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: a " + modernVersion + " request needs _meta." + metaCaps + " (an object)"}
		}
	}
	return ri, nil
}
