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
package config
