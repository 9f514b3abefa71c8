package integration

import (
	"strconv"
	"strings"
)

// opencodePlugin is the plugin tuios writes for opencode and Kilo (a fork
// of opencode that loads plugins the same way): opencode loads every
// {plugin,plugins}/*.{ts,js} in its config directory (read in opencode
// 1.18.33's binary) and calls a plugin's event hook with each bus event.
// The plugin hands the events that say something about the pane to tuios
// agent-hook as one JSON object on stdin, and never waits for it.
var opencodePlugin = &ownedFile{comment: "//", body: func(h Harness, program string) string {
	r := strings.NewReplacer(
		"PROGRAM", strconv.Quote(program),
		"HARNESS", strconv.Quote(h.ID),
		"VERSION", strconv.Quote(strconv.Itoa(h.Version)),
	)
	return r.Replace(`import { spawn } from "node:child_process";

const program = PROGRAM;
const args = ["agent-hook", HARNESS, "--integration", VERSION];

function send(payload) {
  try {
    const child = spawn(program, args, { stdio: ["pipe", "ignore", "ignore"], detached: false });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
  } catch {}
}

export const TuiosPlugin = async ({ directory }) => ({
  event: async ({ event }) => {
    const p = (event && event.properties) || {};
    const base = { session_id: p.sessionID || "", cwd: directory || "" };
    switch (event && event.type) {
      case "session.status": {
        const type = (p.status && p.status.type) || "";
        if (type === "busy") send({ ...base, hook_event_name: "session.busy" });
        break;
      }
      case "session.idle":
        send({ ...base, hook_event_name: "session.idle" });
        break;
      case "session.error":
        send({ ...base, hook_event_name: "session.error", error: String((p.error && (p.error.data && p.error.data.message || p.error.name)) || "error") });
        break;
      case "permission.asked":
      case "permission.updated":
        send({ ...base, hook_event_name: "permission.asked", tool_name: String(p.permission || p.type || ""),
          message: String(p.title || (Array.isArray(p.patterns) ? p.patterns.join(" ") : "") || "") });
        break;
      case "permission.replied":
        send({ ...base, hook_event_name: "permission.replied" });
        break;
    }
  },
});
`)
}}
