// Package jsonrpc is the JSON-RPC 2.0 connection tuios speaks with an
// agent over its stdio: one JSON object per line, requests both ways,
// notifications, and responses matched to calls by id.
//
// It owns the framing and its bounds, nothing about any method: a message
// longer than Options.MaxMessage ends the connection with a
// *TooLongError (nothing is buffered past the bound, so a 100 MB line
// costs at most the bound); a line that is not a JSON-RPC message is
// handed to Options.OnNoise and skipped (agents print a stray log line
// now and then); writes go through a bounded queue drained by one
// goroutine, so a caller never blocks on an agent that stopped reading
// (ErrBacklog instead). The Agent Client Protocol and Codex's app-server
// (which leaves out the "jsonrpc" member) both run on it: see the acp and
// codex packages beside it.
//
// It does not own the process, the meaning of a method, or what an id
// means to the peer.
package jsonrpc
