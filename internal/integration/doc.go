// Package integration wires tuios into coding agents' own settings so that
// each agent reports its state through its hooks (tuios agent-hook), and
// says how each harness stands: installed, out of date, not installed, no
// integration, or cannot read.
//
// An install edits the harness's own settings file and keeps everything
// else in it byte for byte (order, spacing, comments where the format has
// them); it writes atomically, writes nothing when nothing changes, keeps
// the first original as <file>.tuios.bak and never overwrites that backup
// (there is none when tuios creates the file, nor of a file that already
// holds tuios's entries: a backup never carries tuios's own hooks),
// follows a symlinked settings file (a link to nothing is refused), refuses
// a file it cannot parse and a harness whose config directory does not
// exist ("run it once first"), and tries once more when the harness saves
// the file during the edit. Files tuios owns whole (plugins) carry a
// version marker; a file at that path without it is never overwritten or
// removed. Uninstall removes exactly the entries tuios wrote, and the
// file itself when tuios created it and nothing else is left in it.
//
// Layouts: Claude Code's JSON (event → matcher groups → handlers), the
// flat JSON of Cursor's hooks.json and Crush's crush.json (event →
// handlers), [[hooks]] tables in Kimi Code's config.toml (appended and
// removed line by line, the result parsed before it is written), the
// hooks: block of Hermes's config.yaml (edited as a YAML document, so
// comments and other keys stay), and files tuios owns whole. An integration built only from a harness's
// documentation, the harness never having run where tuios was built, says
// so in Status.Untested and on its status line.
//
// What each hook event means for the pane is not this package's concern:
// that map is detect/hook's. This package only wires the events.
package integration
