#!/bin/sh
# tuios-state.sh: a Claude Code hook that reports the pane's agent state to
# tuios. Wire it to SessionStart, UserPromptSubmit, Notification and Stop
# (settings.json beside this file). Claude Code passes the hook's JSON on
# stdin; the event name picks the state:
#
#   SessionStart, UserPromptSubmit  working
#   Notification                    needs_input, with the notification's message
#   Stop                            done
#
# Outside tuios (TUIOS_ENV unset) it reads nothing, runs nothing and exits 0,
# so it is safe to leave wired up. Every path exits 0: a hook that fails
# would get in the agent's way, and a lost report is only a stale indicator.
#
# This is the small, readable version of what `tuios integration install
# claude-code` sets up (which also knows permission prompts from idle
# notifications, subagents and the conversation id).

[ -n "$TUIOS_ENV" ] || exit 0
command -v "${TUIOS_BIN:-tuios}" >/dev/null 2>&1 || exit 0

input=$(head -c 65536)
# One JSON string field, without a JSON parser: good enough for the two
# fields read here, whose values Claude Code writes on one line.
field() {
	printf '%s' "$input" | tr '\n' ' ' | sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\(\([^\"\\\\]\|\\\\.\)*\)\".*/\1/p" | head -n 1 | sed 's/\\"/"/g'
}

set -- -w "$TUIOS_PANE_ID" --harness claude-code
case $(field hook_event_name) in
SessionStart | UserPromptSubmit) "${TUIOS_BIN:-tuios}" set-agent-state working "$@" ;;
Notification) "${TUIOS_BIN:-tuios}" set-agent-state needs_input "$@" -m "$(field message | cut -c1-200)" ;;
Stop) "${TUIOS_BIN:-tuios}" set-agent-state done "$@" ;;
esac >/dev/null 2>&1
exit 0
