// Package config reads the user's tuios config file,
// $XDG_CONFIG_HOME/tuios/config.toml (default ~/.config/tuios/config.toml).
//
// It owns the file's schema and its defaults, and nothing else: the daemon
// reads the [daemon] and [agents] tables once when it starts, the attach
// client reads [keybindings], [notifications.agent], [ui] and [agents]
// enabled, and `tuios risk check` reads [agents.approvals.risk]. A missing file is every default. A file that
// does not parse is an error naming the file and the line; keys this
// build does not know are reported by Unknown so a caller can warn about
// a typo instead of silently ignoring it.
//
// Some keys decide who may act as the person (respond_from_shell): they
// are read from the file only, never from the control protocol, so a pane
// cannot turn them on.
//
// Options are the keys `tuios set-config` may set (edit.go), with their
// types, defaults and bounds; SetOption writes one of them by editing its
// one line of the file (or adding it under its table), keeping every
// other byte, comments included. The tables that decide what may act here
// ([agents], [hosts], [notify], [keybindings] and the rest) are refused
// with the reason.
//
// The link policy (what another machine may do here) is [hosts."*"]
// and [hosts.NAME] allow and hold_mail; LinkPolicy resolves it for one
// peer name (the built-in default, then "*", then NAME; a set allow
// replaces the list). The daemon reads it at start and on apply-config.
//
// [agents.permissions] (permissions.go) is what a pane may do when
// nothing gave it grants: mode open (every pane holds admin, the default)
// or strict (the grants list; an unknown mode reads as strict, unknown
// grant names are dropped). NarrowedPermissions and WiderPermissions are
// what a daemon that follows the file needs: narrowing applies at once,
// widening waits for tuios config apply.
package config
