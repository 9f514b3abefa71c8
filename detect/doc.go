// Package detect tells which coding agent runs in a terminal pane and reads
// what it shows: harness manifests, foreground-process detection, screen,
// title and notification rules, and the explanations of both.
//
// It owns: Tracker, which keeps each pane's agentstate true from every
// source; the manifest schema (TOML, schema_version 1) and its loading
// from the manifests compiled into the binary plus a user directory; the
// reading of a pane's foreground process group from /proc (darwin: sysctl,
// best effort); the matching of processes against manifests and the name
// list, through wrappers and interpreters; Explain; the rule engine
// (RuleSet), ExplainScreen and Registry.ExplainBytes (a recorded screen
// explained in one call). It does not own the state of a pane: it
// produces evidence and reports for an agentstate arbiter, and never
// starts processes or terminals (see packages pty and vt). What an agent's
// own hooks say is decoded by the subpackage hook; Pane.Hook applies a
// decoded invocation to a pane in one call (Pane.Report, Pane.Activity,
// Pane.SetSession and Pane.SetMeta take the parts one by one).
//
// # Manifests
//
// Load reads every bundled manifest, then every *.toml in the user
// directory ($TUIOS_HARNESS_DIR, else $XDG_CONFIG_HOME/tuios/harnesses,
// else ~/.config/tuios/harnesses), in name order. A user manifest with a
// bundled id replaces it whole. Loading never fails as a whole: a file
// that does not parse or breaks a rule is returned as a LoadError (file,
// line, stable code, reason) and skipped. Unknown keys are errors, so a
// typo is never silently ignored. Lookup order is priority (higher first),
// then id.
//
// # Detection
//
// A Detector reads the shell's tpgid (field 8 of /proc/<pid>/stat, counted
// after the last ')'), describes the leader (comm, argv, exe with
// " (deleted)" stripped) and matches, in order: the leader's own identity
// against every manifest then the name list; if the leader is a wrapper
// (an interpreter such as sh, node or python3, or a launcher such as
// timeout, npm exec, mise or nix), each member of its process group behind
// it (children of every thread, depth 4, 24 members), first match wins;
// then the TUIOS_AGENT variable in the leader's environment, which must
// name a manifest. Only a process's own identity counts: its comm, its
// argv[0], its executable (component-wise exe_glob), and for an
// interpreter the one token it runs (package-directory rule for
// argv_path). No other argument and no directory name is ever evidence.
//
// Decisions this package makes where the product docs are silent:
//
//   - Gap fix: a name-list entry shorter than 5 characters (amp, qwen, or
//     a short user addition) needs the same exe corroboration a manifest
//     needs: a manifest that names it in comm or argv0 must have its
//     [detect.require] block met by the process. The engine tuios
//     replaces let such a list name bypass corroboration, so a static
//     binary called amp was an agent by the list after Amp's manifest had
//     refused it. Explain lists such refusals (NameListRefused).
//   - A run token holding whitespace or shell punctuation is code (the
//     string of sh -c or node -e), not a path: argv_path never matches it.
//     Otherwise `sh -c 'cat node_modules/@anthropic-ai/claude-code/x'`
//     would be Claude Code by its scoped package name.
//   - npm exec (npx) rewrites its comm and argv to "npm exec <package>";
//     such a process is named "npm exec", a launcher, never after the last
//     path element of the package it names (a word in an argument).
//   - dash, ash and ksh count as interpreters beside sh, bash, zsh and
//     fish: on Debian a script run by /bin/sh has exe dash.
//   - A pane whose program is itself the leader (AtShell) is still matched,
//     so a pane started directly on an agent is recognised.
//
// Known gaps: agents in containers or over ssh are not descendants; a
// leader that is neither agent nor wrapper (make, go run, xargs) hides its
// children; a pipeline whose first process has exited has no readable
// leader, so the pane reads as not running; sudo with use_pty may run the
// command in a session of its own. Except for the pipeline, setting
// TUIOS_AGENT=<harness> on the command the pane runs is the remedy.
//
// # Cost
//
// A Detector keeps, per pane, the open stat files of the shell and of the
// leader. An open /proc/<pid>/stat stops reading once its process is
// reaped, so a reused pid is never taken for the old process. A steady
// read (same leader, same start time, same comm) therefore costs one read
// of each, with no allocation; behind a wrapper that hid an agent, one more
// read of the agent's stat. A leader that is no agent must also keep where
// its argv and environment lie (arg_start and env_end, fields 48 and 51 of
// the same stat line): an exec moves them, so a program that re-executes
// itself under the same name as an agent (with TUIOS_AGENT set, say) is
// looked at again. A leader that wraps nothing found is walked again on
// each read. A leader caught inside execve (its new comm is set, its argv
// not yet) is answered for that read and not remembered. Call Forget when
// a pane closes.
//
// # Tracker
//
// A Tracker composes the rest into live agent state for a set of panes,
// without a daemon: Attach a pane (the pid of the process on its PTY and
// a screen size), feed it the PTY's output with Pane.Write, and read the
// state from Tracker.Arbiter (Get, Subscribe, Wait). Hooks report through
// Pane.Hook (a transcript_path joins the pane to its transcript).
//
// Each chunk goes to the pane's vt.Screen first, then to the sources:
// OSC 9;4 through the 700 ms hold (only on a pane already known to hold an
// agent, and not after an OSC 7501 report until a full reset), OSC 7501
// records at source program (ended by a new shell prompt, the process
// exiting, the person typing, a full reset, or their process group
// leaving), notification rules as event claims, and title and screen
// rules — only on a pane attributed to a harness, at most once per 250 ms,
// plus one trailing look 400 ms after the last chunk so the prompt painted
// by the final chunk is always read. A pane that just became attributed is
// looked at at once: its prompt may already be painted, and a silent
// prompt brings no more output. The stall deadline and the visible-blocker
// grace ask the tracker for a look through agentstate.Options.Look.
//
// A pane's foreground is read when it is attached (before Attach
// returns, so a pane started on an agent shows it at once), when it
// prints, and again every DetectGap (25 ms) for 200 ms after it printed
// while the foreground is unsettled: the shell in front, a wrapper,
// nothing readable, or a process caught in its exec. That is how an agent
// typed at the prompt shows within about 25 ms of reaching the
// foreground, although it may print nothing for a while (Claude Code
// 2.1.197: about 0.6 s): the Enter's echo is the last output before it,
// and the re-reads find it. Output reads a pane at most once per
// DetectGap, or once per ReconcileInterval (250 ms) while an agent is in
// front, with one trailing read for the chunks skipped. Such a read makes
// an agent appear, clears a pane whose agent left and takes a resting
// agent back to working; only the detection tick (2 s, one for every
// pane) counts the misses that clear a pane another program holds, and a
// quiet pane with no agent is read on every 5th tick. A pane that prints
// nothing arms no timer of its own: a program that prints nothing when it
// starts (sleep 1; claude) is seen when it first prints, or on the tick.
//
// The transcript reader is the subpackage transcript; one
// transcript.Watcher (inotify) serves the whole process.
//
// # Transcript joins
//
// A pane reads its agent's transcript once it is joined to it, in one of
// three ways, strongest first. A hook's transcript_path (Pane.Report)
// joins exactly and ends any other join. Without hooks, a pane attributed
// to a harness with a [transcript] block hunts for its file: at the
// tick, every joinRetry after, and on every change in the directory the
// file will appear in (watched, or while it does not exist its nearest
// parent, up to home). With session_file in the manifest (Claude Code
// keeps ~/.claude/sessions/<pid>.json per running process), the hunt
// first reads the file of the detected agent's pid (or of an
// interpreter's direct child: npm's node launcher): a regular file of at
// most 64 KiB, opened without blocking, whose pid and start time
// (procStart, against /proc) are the agent's. It names the session, and
// the pane joins that session's transcript, found by its id alone
// (transcript.Session.Locate): <session id>.jsonl in the project
// directory Claude Code names after the session's folder, else in
// whichever project directory holds it, whatever the folder is called and
// whichever folder the pane is in, however many earlier sessions'
// transcripts verify beside it; while that file is not written yet the
// hunt waits for it and joins nothing else. The session file is then
// watched (Claude Code rewrites it on every status change, so a file
// written where the hunt does not watch is still found within the turn),
// and the join follows a new id (/clear, /resume). Only when there is no
// valid session file, SessionFileWait (3 s) after the agent was first seen
// (the pane sees it within milliseconds of its start, before Claude Code
// has written the file; the hunt watches for it meanwhile), does the hunt
// search: the one file in
// the project directory whose records verify (cwd, and the version the
// agent's install says it is; see install.go) and that was written since
// the agent process started (by its start time in /proc: an older file is
// an earlier session's, however well it verifies) is joined, two or more
// are refused. A session join replaces a searched one; a searched join the
// session file contradicts yields what it reported. CLAUDE_CONFIG_DIR
// moves both of Claude Code's directories away from ~/.claude; a user
// manifest that names them there is the remedy.
//
// # Concurrency
//
// A Tracker has two kinds of lock: its own (the pane map and the
// detection tick) and one per Pane (what it keeps for that pane: the
// attribution, looks, the trailing-look timer, program status records,
// the transcript join). They are taken in that order, then the arbiter's.
// None of them is ever held across blocking I/O or a caller's code: no PTY
// write, no file open, read or stat, no /proc read, no transcript search,
// no watcher call, no callback. A locked section records the I/O it needs;
// the I/O runs once the lock is released, and its result is applied under
// the lock again only if the pane is still attached and still the one
// that asked (the same join, the same attribution, no newer detection).
// So one stuck pane stops no other, and stops none of its own methods:
//
//   - The screen's answers to terminal queries (cursor position reports
//     and the like) are collected while Pane.Write feeds the screen and
//     written to PaneOptions.Reply after the lock is released, in order,
//     unchanged. A PTY that stops draining blocks only that Write.
//   - Pane.Foreground reads an atomic copy of the last detection;
//     Pane.ReadForeground reads /proc on the caller's goroutine, with no
//     lock held, for a caller about to act on whether an agent still runs.
//   - Detection runs unlocked, one read per pane at a time. The next tick
//     is armed before a pass runs, and a pane whose /proc read has not
//     returned is skipped until it does (the read out is then applied as
//     that tick); Detach does not wait for it (Detector.Forget never waits
//     for a read in progress). Attach and Pane.Write run their reads on
//     the caller's goroutine, with no lock held.
//   - The transcript reader opens files with O_NONBLOCK and refuses
//     anything but a regular file, so a FIFO or a device named as a
//     transcript, or in place of a session file or a package.json,
//     blocks nothing.
//   - After Tracker.Detach every method of the old Pane is a no-op, and
//     its late timers, detections and watcher callbacks are dropped: the
//     pane never reappears in the arbiter or the tracker.
//
// Left as they are: a tick pass reads its panes one after another, so a
// stuck read delays the panes after it until the next pass; and a look
// the arbiter asks for (stall, idle confirmation) reads an unwatched
// transcript on the arbiter's timer goroutine.
//
// # Text from processes
//
// Argv, comm and exe are written by the processes themselves. They are
// data: Explanation.String escapes control characters, and nothing here
// runs or obeys them.
package detect
