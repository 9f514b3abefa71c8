// Package tui is the attach client: what a person sees and types into when
// they run `tuios attach`. It owns the outer terminal while attached (raw
// mode, the alternate screen, mouse and paste modes), the drawing of the
// daemon's tiles, title bars, the session rail and the dock line, the
// key bindings, copy mode, copy and paste (OSC 52 and its paste buffer),
// mouse selection, the help screen, the Inbox overlay with its peek and
// answers, the settings page (prefix ,: the Agents, Alerts and Hosts
// tabs, settings*.go; its changes go through the daemon's verbs or the
// same edits the CLI makes), and the alerts (bell, OSC 9) raised when a
// pane out of sight starts to need the person. Options.Configure maps the client's part of
// the config file (read by package config) onto its options.
//
// Every key is a row of one table (bindings.go): the keymap the handlers
// look keys up in, the help screen (prefix ?), the dock's hint after the
// prefix, the palette's entries and `tuios attach --help` (KeysHelp) are
// all made from it with the bindings of the config file, so none of them
// can say something the keys do not do.
//
// bubbletea is the event loop and ultraviolet decodes the input, but the
// client draws its frames itself (screen.go): bubbletea's renderer, and
// even its program without one, flush on a ticker for the whole run, and
// an attached client whose panes are idle must not wake at all. A change
// arms one short timer; the burst of changes behind it makes one frame.
//
// A key's echo is the path that is timed against tmux (DESIGN.md), so it
// is kept short: the process runs on one P (run.go), the terminal is
// reopened non-blocking as a rawio.File and read and written with raw
// calls (terminal_linux.go), its connections are rawio.Conns
// (client.Options.Typing): neither the outer terminal reading a frame nor the
// daemon reading a key wakes the client for room to write, as the
// runtime's poller would (it watches both ways); a key goes out as
// a quiet send-text before anything is drawn (conn.go: the daemon answers
// only a failure, which the dock shows), a screen line is read without
// reflection (proto.ParseAttachScreen), and a frame that only changed
// pane rows is patched rather than composed again (patch.go).
//
// A frame is cells, not text (frame.go, cells.go): a pane's rows are
// turned into cells once, when they arrive, with every SGR attribute and
// colour the pane's program set (bold, dim, italic, the five underline
// styles and the underline colour, blink, reverse, invisible, strike;
// 16, 256 and RGB colours); the chrome is drawn as styled text, each
// distinct row parsed once. The painter (paint.go) writes only the cells
// that differ from what the terminal shows, down-sampling colours to the
// terminal's colour profile (truecolor, 256, 16 or none: read from the
// real terminal and TERM, COLORTERM, terminfo, NO_COLOR and
// CLICOLOR_FORCE, as colorprofile reads them). The chrome uses the
// built-in theme (theme.go): the terminal's own ANSI colours, each role
// with a cue that needs no colour (the focused title bar and selections
// in reverse video, bold borders beside the focused tile, glyphs), so it
// reads the same under NO_COLOR.
//
// Side-by-side tiles are a column apart and the client draws the border
// there (│, joined to the title bars with ┬ ├ ┤ ┼; | with --ascii-only),
// bold green beside the focused tile, whose title bar is a solid reverse
// bar; the others' title bars are their text on the border line. A
// session shown by clients of different sizes takes the size of the one
// used last (tmux's window-size latest: attached, resized or typed into);
// a larger client dots the part of its area the session does not use and
// a smaller one shows the session cut, each with a one-line note naming
// the client that sets the size.
//
// It does not own layout, screens or state: the daemon tiles the windows
// and sends each visible pane's rows (proto.AttachLayout, AttachScreen);
// this package places those rows and turns keys, mouse and pastes back
// into verbs (send-text, focus-window, run-command, …) on a second
// connection. Pane text is untrusted: rows are drawn only inside their
// tile, and messages from agents are stripped of control characters
// before they reach the rail, the dock or a notification.
//
// Decisions the docs leave open, written down here:
//   - A done pane draws ○ once the daemon says its turns were seen (the
//     layout's seen), ■ until then; a pane with an open ask-human
//     question draws ▲ needs input, as the spec asks, without changing
//     its agent state.
//   - A wheel scroll over a pane that does not ask for the mouse opens
//     scrollback mode, as tmux does with its mouse on.
//   - Digits act in the peek view, and in the list on an ask-human row
//     (its answers) or a held approval or plan (1 once, 2 always, 3
//     deny); always only after what they answer has stood unchanged for
//     0.4 s. Elsewhere in the list they do nothing.
//   - In the peek view, a digit whose option's label opens with a word of
//     refusal ("No, and tell …", "Deny", "Cancel") is a deny: one press
//     even on a risky prompt. Anything unsure counts as an allow, so a
//     risky prompt still takes its second press.
//   - f cycles through the headings the list has, then all again; S adds
//     the snoozed items under Snoozed (it does not hide the open ones);
//     the selector narrows the list while it is typed, and enter keeps
//     it only if the daemon took it.
//   - A held plan counts as read once the frame after a message shows
//     its last line in at least three rows of detail; on a smaller
//     screen it never does, and enter hands it back to the pane.
//   - Enter on a held row hands the prompt back (decision ask), then
//     goes to the pane: the calls go out in order, so the hand-back is
//     not taken for the pane being viewed.
//   - The rail takes no keys, so r (reply) acts in the Inbox only.
//   - An ask-human question from a pane on screen opens the Inbox on it
//     (ask_present.go): the layout names each asking pane's question
//     (ask_id), so each opens it once; a person typing into that pane
//     gets it once they stop.
//   - Switching session (Inbox enter on another session's item, a click on
//     a rail row) re-attaches the stream to that session.
//   - The paste buffer is the client's, not the daemon's (tmux keeps its
//     buffers in the server so clients share them). What a person copies
//     can be a secret; a buffer in the daemon would be one more thing a
//     verb from a pane could read, or a program could paste with send-keys.
//     In the client it reaches a pane only when the person presses prefix
//     ], and the terminal's clipboard (OSC 52) already shares it with
//     everything else on the person's machine. It ends with the client.
//   - A rebound key takes that key from whatever had it by default, as
//     tmux's bind-key does; two rebound actions of one mode on one key, or
//     one on the prefix, is a config error. The prefix is read before any
//     mode's keys, so copy mode's ctrl+b is the prefix while it is ctrl+b.
//   - A page key in copy mode moves the view a whole page and the cursor
//     with it (the cursor keeps its row), as tmux does; at an end of the
//     history the cursor goes on to the first or last line.
//   - A mouse selection is made over what the pane shows now and copied
//     at the release; it stays drawn until the next key or click. Over a
//     pane whose program asked for the mouse only shift+drag selects.
//   - % and " ask split-window for a vertical (side by side, the new
//     window on the right) and a horizontal (stacked, the new window
//     below) split of the focused tile, as tmux's keys; a tile too small
//     to split says so on the dock (the daemon's no_space). When the
//     area is too small for every tile, the focused title bar counts the
//     windows not shown.
//   - [ui] rail = "off" starts with the rail hidden; prefix b shows and
//     hides it, and prefix s (the rail's cursor) shows it. set-config
//     ui.rail acts at once; a reload that leaves the setting as it was
//     leaves the rail as the person toggled it.
package tui
