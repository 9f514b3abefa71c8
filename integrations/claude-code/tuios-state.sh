#!/bin/sh
# tuios-state.sh: the old Claude Code shim, kept so settings that still
# point at it keep working. It now just runs `tuios agent-hook claude-code`,
# which reads the hook's JSON on stdin and reports the pane's state:
# prompt submit working, a permission notification needs_input with its
# message, stop done (and subagents and the conversation id besides).
#
# Outside tuios (TUIOS_ENV unset) it reads nothing, runs nothing and exits
# 0, so it is safe to leave wired up. Beside an installed integration
# (`tuios integration install claude-code`) every event would be reported
# twice; `tuios doctor agents` says so. Prefer the integration.

[ -n "$TUIOS_ENV" ] || exit 0
command -v "${TUIOS_BIN:-tuios}" >/dev/null 2>&1 || exit 0
"${TUIOS_BIN:-tuios}" agent-hook claude-code >/dev/null 2>&1
exit 0
