package integration

import (
	"strconv"
	"strings"
)

// opencodePlugin is the plugin tuios writes for opencode and Kilo (a fork
// of opencode that loads plugins the same way). Both load every
// {plugin,plugins}/*.{ts,js} of their config directory and call a plugin's
// event hook with each bus event (read in opencode 1.18.33's and Kilo
// 7.7.9's binaries; every export must be a plugin function). The plugin
// passes on the events that say something about the pane, and none from a
// child (subagent) session, whose idle is not the pane's, one at a time
// and in order (see sender).
//
// v3 holds permission requests so the person can answer them from the
// Inbox (held approvals, [agents.approvals]). opencode 1.18.33
// never calls a plugin's "permission.ask" hook (its Permission.ask only
// publishes permission.asked and waits for a reply), so the plugin
// answers the way opencode's own clients do: through the client it is
// given, POST /permission/{id}/reply. After the request's report has
// gone, it runs agent-hook --hold, which asks the daemon (answered
// "disabled" unless [agents.approvals] names the harness) and prints a
// reply only when the person decided; on anything else, or after 310 s,
// nothing is sent and opencode's own prompt, shown all along, stays the
// way to answer. A person answering there first stops the hold.
var opencodePlugin = &ownedFile{comment: "//", body: func(h Harness, program string) string {
	return fill(`import { spawn } from "node:child_process";

const children = new Set();
const calls = new Map();
const holds = new Map();
let client;

SENDER

// hold runs once the request's report is sent (the daemon holds only a
// pane that reads needs_input); the queue does not wait on it.
function hold(payload) {
  const reported = queue;
  reported
    .then(() => new Promise((resolve) => {
      let out = "";
      let child;
      const timer = setTimeout(() => {
        try { child.kill(); } catch {}
      }, 310000);
      if (timer && timer.unref) timer.unref();
      const done = () => {
        clearTimeout(timer);
        holds.delete(payload.request_id);
        resolve(out);
      };
      try {
        child = spawn(program, [...args, "--hold"], { stdio: ["pipe", "pipe", "ignore"] });
        holds.set(payload.request_id, child);
        child.stdout.on("data", (b) => {
          if (out.length < 65536) out += b;
        });
        child.on("error", done);
        child.on("close", done);
        child.stdin.on("error", () => {});
        child.stdin.end(JSON.stringify(payload));
        child.unref();
      } catch {
        done();
      }
    }))
    .then((out) => answer(payload.request_id, out))
    .catch(() => {});
}

// answer sends the person's decision; only once and reject are ever
// printed, and a request already answered in the pane just fails.
async function answer(id, out) {
  let d;
  try {
    d = JSON.parse(out);
  } catch {
    return;
  }
  if (!d || (d.reply !== "once" && d.reply !== "reject")) return;
  const body = { reply: d.reply };
  if (d.reply === "reject" && typeof d.message === "string" && d.message) body.message = d.message;
  try {
    await client._client.post({ url: "/permission/" + encodeURIComponent(id) + "/reply", body,
      headers: { "Content-Type": "application/json" } });
  } catch {}
}

export const TuiosPlugin = async (input) => {
  const directory = input && input.directory;
  client = input && input.client;
  return {
    // A bash call's workdir is not in its permission request, and a
    // command held without it would not say where it runs.
    "tool.execute.before": async (call, output) => {
      if (!call || call.tool !== "bash") return;
      calls.set(call.callID, (output && output.args) || {});
      if (calls.size > 64) calls.delete(calls.keys().next().value);
    },
    event: async ({ event }) => {
      const p = (event && event.properties) || {};
      const info = p.info || {};
      if ((event.type === "session.created" || event.type === "session.updated") && info.parentID) children.add(info.id);
      const sessionID = p.sessionID || info.id || "";
      if (children.has(sessionID)) return;
      const base = { session_id: sessionID, cwd: directory || "" };
      switch (event.type) {
        case "session.status":
          if (p.status && p.status.type === "busy") send({ ...base, hook_event_name: "session.busy" });
          break;
        case "session.idle":
          send({ ...base, hook_event_name: "session.idle" });
          break;
        case "session.error": {
          const e = p.error || {};
          send({ ...base, hook_event_name: "session.error", error: String((e.data && e.data.message) || e.name || "error") });
          break;
        }
        case "permission.asked": {
          const asked = { ...base, hook_event_name: "permission.asked", tool_name: String(p.permission || ""),
            message: Array.isArray(p.patterns) ? p.patterns.join(" ") : "" };
          send(asked);
          if (p.id && client && ["bash", "read", "webfetch"].includes(asked.tool_name)) {
            const args = calls.get(p.tool && p.tool.callID) || {};
            hold({ ...asked, request_id: String(p.id), patterns: Array.isArray(p.patterns) ? p.patterns.map(String) : [],
              metadata: p.metadata || {}, workdir: typeof args.workdir === "string" ? args.workdir : "" });
          }
          break;
        }
        case "question.asked": {
          const q = Array.isArray(p.questions) && p.questions[0] ? p.questions[0] : {};
          send({ ...base, hook_event_name: "question.asked", message: String(q.question || q.header || "") });
          break;
        }
        case "permission.replied": {
          const child = holds.get(p.requestID);
          if (child) {
            try { child.kill(); } catch {}
          }
          send({ ...base, hook_event_name: event.type });
          break;
        }
        case "question.replied":
        case "question.rejected":
          send({ ...base, hook_event_name: event.type });
          break;
      }
    },
  };
};
`, h, program)
}}

// ampPlugin is the plugin tuios writes for Amp (~/.config/amp/plugins,
// TypeScript run by Bun; read in `amp plugins show-docs` of
// 0.0.1790142911). Amp has no approval event, but each thread's state
// stream says idle, running, awaiting-approval or error; the plugin
// follows it for threads that have no parent (not subagents). It
// registers no request event, so it can never answer a tool call.
var ampPlugin = &ownedFile{comment: "//", body: func(h Harness, program string) string {
	return fill(`import { spawn } from "node:child_process";

export const description = "Reports each thread's state to tuios (written by tuios integration install)";

SENDER

export default function (amp: any) {
  amp.on("session.start", async (event: any, ctx: any) => {
    try {
      const id = String((event && event.thread && event.thread.id) || "");
      if (await ctx.thread.parentThreadID()) return;
      send({ hook_event_name: "session.start", session_id: id });
      ctx.thread.state.subscribe((state: string) => send({ hook_event_name: "thread." + state, session_id: id }));
    } catch {}
  });
}
`, h, program)
}}

// piExtension is the extension tuios writes for Pi and oh-my-pi (a fork of
// Pi): both load extensions/*.ts from their agent directory with jiti and
// call pi.on handlers (Pi 0.73.1 docs/extensions.md and
// core/extensions/types.d.ts; oh-my-pi 18.3.4 src/extensibility). Pi has no
// approval prompt of its own; oh-my-pi's tool_approval_requested is one.
var piExtension = &ownedFile{comment: "//", body: func(h Harness, program string) string {
	return fill(`import { spawn } from "node:child_process";

SENDER

function sid(ctx: any): string {
  try {
    return String(ctx.sessionManager.getSessionId() || "");
  } catch {
    return "";
  }
}

export default function (pi: any) {
  const on = (name: string, f: (e: any, ctx: any) => Record<string, unknown> | undefined) => {
    try {
      pi.on(name, async (e: any, ctx: any) => {
        const p = f(e || {}, ctx);
        if (p) send({ hook_event_name: name, session_id: sid(ctx), cwd: process.cwd(), ...p });
      });
    } catch {}
  };
  on("session_start", (e) => ({ source: String(e.reason || "") }));
  on("agent_start", () => ({}));
  on("tool_execution_start", (e) => ({ tool_name: String(e.toolName || ""), tool_input: e.args }));
  on("agent_end", (e) => (e.willContinue ? undefined : {}));
  on("tool_approval_requested", (e) => ({ tool_name: String(e.toolName || ""), message: String(e.reason || "") }));
  on("tool_approval_resolved", () => ({}));
  on("session_shutdown", (e) => (e.reason === "quit" ? {} : undefined));
}
`, h, program)
}}

// sender is the part every plugin shares: send(payload) hands one event
// to tuios agent-hook as JSON on stdin. Events go one at a time, in order
// (each waits for the last hook to exit, at most 2 s): a turn ends with
// several events within milliseconds, and reports sent by concurrent
// processes could land the other way round, leaving a finished turn
// working (seen with Kilo 7.7.9 in a pane). An event equal to the last one
// sent is not sent again. Plain JavaScript, which TypeScript loaders take
// as it is.
const sender = `const program = PROGRAM;
const args = ["agent-hook", HARNESS, "--integration", VERSION];
let queue = Promise.resolve();
let last = "";

function run(payload) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    if (timer && timer.unref) timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      const child = spawn(program, args, { stdio: ["pipe", "ignore", "ignore"] });
      child.on("error", done);
      child.on("exit", done);
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
      child.unref();
    } catch {
      done();
    }
  });
}

function send(payload) {
  const key = JSON.stringify(payload);
  if (key === last) return;
  last = key;
  queue = queue.then(() => run(payload));
}
`

func fill(template string, h Harness, program string) string {
	template = strings.Replace(template, "SENDER\n", sender, 1)
	return strings.NewReplacer(
		"PROGRAM", strconv.Quote(program),
		"HARNESS", strconv.Quote(h.ID),
		"VERSION", strconv.Quote(strconv.Itoa(h.Version)),
	).Replace(template)
}
