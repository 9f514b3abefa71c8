// Package clienttest runs `tuios mcp` against the official MCP clients:
// the Go SDK's client (github.com/modelcontextprotocol/go-sdk) and the
// inspector's CLI (@modelcontextprotocol/inspector), each with a real
// daemon. It is a module of its own so the SDK never becomes a
// dependency of tuios; .ci/run runs it.
package clienttest
