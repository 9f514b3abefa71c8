// Package standin is a test stand-in for model APIs. The real ones cannot
// be reached from where tuios is built and tested (no network but the
// package registries), yet end-to-end tests must drive a real agent CLI
// through a whole turn. A Server answers the Anthropic Messages API on
// 127.0.0.1 with scripted replies, so such a CLI, pointed at it with
// ANTHROPIC_BASE_URL, runs its real code: it streams an answer, writes its
// transcript, asks for permission before a tool call.
//
// What it speaks:
//
//   - POST /v1/messages, with "stream": true as server-sent events
//     (message_start, content_block_start / content_block_delta /
//     content_block_stop per block, message_delta carrying the stop reason,
//     message_stop) and without as one JSON message.
//   - POST /v1/messages/count_tokens: a rough count.
//   - GET /v1/models and /v1/models/{id}: the models the options name.
//   - HEAD and GET /: 200, the reachability probe Claude Code sends.
//   - Anything else: 404 with an Anthropic-shaped error body.
//
// Replies are scripted by Options: the agent's own requests (those that
// offer tools) take Turns in order, the last one repeating; the side
// requests an agent makes (a title, a topic, a quota probe) take Aside;
// Options.Answer overrides both. A Reply is text, tool calls, or both, or
// an HTTP error. Every request is recorded (Requests, Wait) with what a
// test needs to assert on it: the path, the model, whether it streamed,
// the tools offered, whether it carried a tool result, and the text of the
// last user message.
//
// It is for tests and local experiments only: it checks no key, keeps
// everything in memory and listens on loopback alone.
package standin
