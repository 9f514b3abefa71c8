// Package resume is resume after restart (docs/agents.md, Resume
// conversations after a restart): the daemon's feature that offers, or
// types, the command that resumes a pane's agent conversation once a
// restart brought the pane back with a new shell, and serves
// resume-agent.
//
// A restart ends every program; the restore brings each window back with
// a new shell, and the conversation id its saved state held stays on the
// window (core.WindowView.ResumeID). For a window whose saved state had a
// live agent, and whose harness manifest says how to resume a
// conversation ([resume] argv with {session_id}), [daemon] resume_agents
// decides: ask (default) opens one resume Inbox item whose summary is the
// exact command; auto types it once the new shell is at its prompt and
// has been quiet for 300 ms (waiting at most 10 s, panes 100 ms apart),
// falling back to the ask item; off does nothing. resume-agent types it
// later, at the person's word.
//
// The offer is made once: a restored window has no agent state, so the
// next save writes agent_live false and a later restart offers nothing,
// unless the agent ran again.
//
// It reaches the core only through core.Host: the restored windows
// (OnRestored, after the Inbox's saved items loaded, so a loaded item
// does not shadow a new one), the window resolved through the one target
// check, the one write path (as the caller, or as the daemon itself for
// auto), and the Inbox's resume item. What it does not own: the saved
// sessions and the id kept on a window (the core's restore), the
// manifests' [resume] (detect), the Inbox.
package resume
