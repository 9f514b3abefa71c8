// Package tui is the attach client: what a person sees and types into when
// they run `tuios attach`. It owns the outer terminal while attached (raw
// mode, the alternate screen, mouse and paste modes), the drawing of the
// daemon's tiles, title bars, the session rail and the dock line, the
// prefix key bindings, scrollback mode, the Inbox overlay with its peek
// and answers, and the alerts (bell, OSC 9) raised when a pane out of
// sight starts to need the person. Options.Configure maps the client's
// part of the config file (read by package config) onto its options.
//
// bubbletea is the event loop and ultraviolet decodes the input, but the
// client draws its frames itself (screen.go): bubbletea's renderer, and
// even its program without one, flush on a ticker for the whole run, and
// an attached client whose panes are idle must not wake at all. A change
// arms one short timer; the burst of changes behind it makes one frame.
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
//   - A done pane is drawn with the unseen glyph (■): the attach layout
//     does not say whether the person has seen it.
//   - A wheel scroll over a pane that does not ask for the mouse opens
//     scrollback mode, as tmux does with its mouse on.
//   - Digits in the Inbox act in the peek view only, and only after the
//     peeked prompt has stood unchanged for 0.4 s.
//   - Switching session (Inbox enter on another session's item, a click on
//     a rail row) re-attaches the stream to that session.
package tui
