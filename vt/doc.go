// Package vt is the screen model of one terminal pane: it consumes the bytes
// a program writes to its PTY and keeps what a person would see — the grid of
// the active screen, the history above it, the title, the working directory,
// the cursor and the modes — and turns the escape sequences that carry
// meaning for agent tracking into typed events.
//
// # What it owns, and what it does not
//
// vt owns the screen state of one pane and the events found in its output
// stream (OSC 9;4 progress, OSC 7501 program status, OSC 9/777/99
// notifications, OSC 0/2 titles, OSC 7, OSC 133 prompt marks, BEL, RIS),
// delivered as Event values (a struct with a Kind, so emitting one never
// allocates). It owns its escape-sequence parser and its character widths
// too, so it depends on no terminal library at run time. It does not own
// the PTY or the process (package pty), what a screen means (package
// detect), the state arbitration (package agentstate), time (no clock: the
// owner notes when output arrived), or rendering. The OSC 9;4 and OSC 7501
// payload parsers and the bordered-dialog extraction (FindBoxes) live in
// this package but are pure functions over payloads and cells.
//
// # The parser
//
// Bytes go through the package's own parser, a DEC/VT500-style state
// machine after Paul Williams' description of the DEC parser: ground,
// escape, escape-intermediate, CSI entry/param/intermediate/ignore, DCS
// entry/param/intermediate/passthrough/ignore, OSC string and SOS/PM/APC
// string. A CSI sequence keeps at most 32 parameters (':' sub-parameters
// included, each marked as followed by a sub-parameter), values saturate
// at 65,536, and its private prefix (< = > ?) and last intermediate byte are
// packed with the final byte. In the ground state runs of printable bytes
// are taken straight from the input slice: ASCII runs are copied into cells
// in a tight loop, and runs with UTF-8 are segmented into grapheme clusters.
// A cluster that is split across two Write calls is not joined (as in
// x/vt); a UTF-8 character split across two writes is. Malformed sequences
// are handled as the DEC machine (and xterm and tmux) do: a private marker
// or parameter byte out of place makes the sequence ignored up to its final
// byte, CAN and SUB cancel, ESC starts over, C0 controls inside a sequence
// are executed without disturbing it.
//
// An OSC string ends at BEL or ESC \ only, not at a 0x9c byte (C1 ST),
// which is also the middle byte of UTF-8 characters such as "✳" (e2 9c b3)
// in agents' titles; CAN and SUB cancel it. An OSC string is capped at 4 KiB
// after "7501;" (the OSC 7501 payload limit: 4,101 bytes with its number,
// so a title keeps its first 4,099); a longer OSC 7, 7501 or 9;4 is dropped
// rather than read cut. DCS, APC, PM and SOS strings are parsed and their payloads
// dropped unread. Colour queries (OSC 10/11) are not answered; programs that
// ask follow with DA1, which is.
//
// The title is set by OSC 0 and OSC 2 and saved and restored by the XTWINOPS
// title stack (CSI 22 t / CSI 23 t, at most 10 deep), which vim and others
// use to put the shell's title back on exit; each change is an
// EventTitleChanged.
//
// # Widths
//
// A grapheme cluster is found by the Unicode segmentation rules (UAX #29,
// clipperhouse/uax29) and its width is what clipperhouse/displaywidth gives
// it, with East Asian ambiguous characters one column wide: the same
// segmentation and widths as x/ansi's grapheme-width method, which
// charmbracelet/x/vt uses, decided once for the package (the
// RUNEWIDTH_EASTASIAN variable is not read). A character is at most two
// columns wide; a zero-width one joins the cell before it.
//
// # Size
//
// A screen is at least 1x1 and at most MaxCols x MaxRows (1000 x 1000):
// New (which takes 80x24 for a zero size) and Resize clamp the size they
// are given to these bounds, so a bogus size cannot make a pane allocate
// without bound; Resize ignores a zero or negative size (size unknown).
//
// # The grid
//
// A cell is 8 bytes: a rune (or an index into a per-screen table of
// multi-rune clusters), a 16-bit index into a per-screen style table, and a
// kind (narrow, wide, second half of wide, cluster); a row carries its
// soft-wrap mark (the cursor left it by autowrap). A screen's rows share
// one backing array; scrolling rotates row headers, so steady-state output
// allocates nothing. The alternate screen is allocated when a program
// enters it and freed when it leaves (1047/1049, which clear it anyway), on
// RIS, or on a resize while it is not shown; it never feeds the scrollback.
//
// The scrollback is a bounded ring (Options.Scrollback lines, default
// 10,000) of packed lines: the UTF-8 text of the cells with trailing blanks
// dropped, the soft-wrap mark and the width up to the last written cell, one metadata byte per cell only when the line holds wide
// characters or clusters, and style runs only when the line is styled (runs
// hold the Style by value, so the style table can be compacted by walking
// only the live grids). An evicted line lends its buffers to the next one,
// so a full scrollback does not allocate. Lines leave the screen for the
// history when they scroll out of a region that starts on the top row (the
// whole screen, or a region above a pinned footer), as in xterm; IL, DL and
// scrolls of regions lower down do not feed it (tmux keeps those too).
//
// The style table is bounded at 65,536 entries: when it fills it is rebuilt
// from the styles the live cells use; if the grid itself uses them all, new
// styles fall back to the default rendition. The cluster table is compacted
// the same way, and a single cluster keeps at most 48 bytes (real ones are
// under 30; only adversarial streams pile up thousands of marks).
//
// # Concurrency
//
// A Screen is safe for one writer and any number of concurrent readers:
// Write and Resize take the write lock, every reader (Text, Tail, Capture,
// Cell, Row, Cursor, Title, ...) the read lock. Concurrent Write calls are
// serialised. Events and replies are collected while the lock is held and
// delivered after it is released, on the goroutine calling Write and in
// stream order: an OnEvent callback may read the Screen but must not call
// Write or Resize on it (that would deadlock) and must not block. Replies
// (DA1, DA2, DSR/CPR, DECRQM, the OSC 7501 support query) are written to
// Options.Reply the same way, so a program that queries the terminal never
// waits on the parser.
//
// # Resize
//
// Resize sets the height first, at the old width: when rows shrink, rows
// below the cursor are dropped first, then rows leave from the top into
// the scrollback (main screen) so the cursor's line stays visible; when
// rows grow on the main screen, history lines come back down first. Then,
// when the width changed, the main screen is reflowed, as tmux, kitty and
// alacritty do (tmux resizes in the same order). The scroll region is
// reset to the whole screen.
//
// A row the cursor left by autowrap is marked soft-wrapped, on screen and
// in the history. A reflow joins each run of soft-wrapped rows and history
// lines, with the row that ends it, into one logical line and wraps that
// again at the new width, narrower or wider; a hard line break (CR LF, a
// cursor move) is never joined over. A line longer than the new width is
// split whether it was wrapped or not, and joined back when the window
// grows again. The text of a row is its cells up to the last one written:
// a written blank is text, a cell left unwritten or erased at the end of
// a wrapped row (the spacer a wide character left when it moved to the
// next row) is not, so it does not push the text. Erased cells after the text that kept a background colour
// (background colour erase) are decoration, not text: they stay on the
// line's last row as far as they fit, and a line erased to its end in a
// colour still reaches the new end. Styles, wide characters and grapheme
// clusters are kept whole: a wide character that does not fit at a row's
// end starts the next row, leaving that column blank, as printing does. A
// screen one column wide cannot show a wide character: a reflow to one
// column drops it (printing one there drops it too).
//
// The cursor follows its character. Just after the text at a row's end it
// is a pending wrap on the last column, as after printing up to the edge
// (tmux). Right of the text (moved there), it keeps its column and the
// line is padded with blanks up to it (tmux moves it back to the end of
// the text). The main screen's saved cursor (DECSC) and the last OSC 133
// B mark follow their text the same way (tmux keeps a saved cursor's
// coordinates, so a restore after a reflow lands on other text).
//
// The screen shows the last rows of the text: what no longer fits goes to
// the history, newest rows first, and what the history cannot hold is
// gone as if it had scrolled out (a line longer than the history keeps its
// end); when the text needs fewer rows, history comes back down. One
// exception, where tmux differs: a screen that ended in blank rows below
// the cursor keeps its top row, the blank rows taking what the text gains
// (then the history, once they are used up) or gives back, so a short
// screen after a clear is not pushed into the history by a narrower window
// and comes back as it was (tmux keeps the blank rows and pushes the top
// into the history). When the text below the cursor fills the screen the
// cursor's row goes into the history: the cursor goes to the top left, a
// saved cursor there too, a mark there is forgotten (tmux).
//
// The alternate screen is never reflowed: it is cut or padded on the
// right (a wide character cut in half becomes a blank), as in tmux; full
// screen programs redraw on SIGWINCH. While it is shown, the main screen
// and its history keep their size; they are reflowed when the program
// leaves the alternate screen, from that size to the current one, with
// the cursor it restores (1049) or leaves (47, 1047) — what tmux does. A
// RIS while it is shown starts the main screen over at the current size.
//
// A reflow lays the lines out newest first and stops once the screen and
// the history are full, so it costs what they hold, not what the old
// layout held: with a full 10,000-line history of 150-column lines, about
// 5 ms each way between 160 and 80 columns (BenchmarkReflow). The new
// history lines get the room the old ones had (a whole row of text, style
// runs, metadata), so once the output has gone round once after a resize
// it allocates nothing again (TestSteadyStateAllocsAfterResize).
//
// Capture with Join gives each soft-wrapped line whole, as tmux
// capture-pane -J does; without it rows come as the screen shows them.
// LastLines gives the last lines joined the same way, history included,
// reading only the rows they take (what reads a prompt taller than its
// pane). Tail reads the screen's rows as shown (a screen rule reads what a
// person sees); none of the readers ever sees a line cut by a resize.
//
// # Differences from charmbracelet/x/vt
//
// The differential tests (FuzzDifferential, TestDifferentialTable) compare
// screen text with x/vt v0.1.0. Where the two differ we follow xterm and
// tmux, and the fuzz grammar steers around the difference:
//   - a resize reflows the main screen (x/vt cuts rows and keeps no wrap
//     marks); the differential tests never resize, and the reflow is
//     checked against tmux itself (TestReflowMatchesTmux) and against a
//     screen printed at the final size (FuzzReflow);
//   - a wide character that does not fit in the last column wraps whole,
//     or without autowrap is dropped, as in tmux (x/vt clips it, and can
//     lose the next character);
//   - a zero count means one for CUU/CUD/CUF/CUB/CNL/CPL/CHT/CBT/ICH/DCH/
//     ECH/IL/DL/SU/SD/REP (x/vt treats some as zero);
//   - entering the alternate screen keeps the cursor position and the scroll
//     region; any of 47/1047/1049 leaves it; mode 47 is supported;
//   - DECOM and DECSTBM home the cursor to the page (or, with DECOM, region)
//     origin; CSI u (SCORC) restores the cursor; NEL (ESC E) is supported;
//   - DECSC saves and DECRC/DECSTR restore/reset the character sets; a
//     restore with nothing saved homes the cursor; DECSTR turns autowrap
//     back on and resets the scroll region (as tmux does);
//   - a pending wrap behaves as tmux's cursor past the last column: ED 0,
//     EL 0, ECH, ICH and DCH then change nothing on the line and keep the
//     wrap pending, CUB counts from past the last column, BS lands on the
//     last column, LF, IND, RI and VPA keep it (checked with tmux 3.3a),
//     DECRC, IL, DL, CUU and CUD clear it, HT keeps it (x/vt edits the last
//     column, moves one further left, keeps it over DECRC and IL/DL, clears
//     it on LF, IND and VPA);
//   - IL and DL inside a scroll region leave the cursor's row alone (tmux;
//     x/vt moves it);
//   - ED 1 erases the cursor's row only up to the cursor (x/vt: all of it);
//   - REP repeats any character, not only ASCII, and (as tmux) only up to
//     the end of the line;
//   - ICH/DCH and insert mode move wide characters whole;
//   - DEC graphics y/z are ≤ ≥ (x/vt: ⩽ ⩾); '_' is not mapped (as x/vt);
//   - raw C1 bytes (0x80–0x9f) in text are not controls: the input is
//     UTF-8, and invalid UTF-8 prints U+FFFD (inside an escape sequence
//     they still act);
//   - malformed sequences are handled as the DEC parser does (see The
//     parser); x/vt's parser, for one, reads a C0 control inside a CSI
//     sequence into the sequence's final byte.
package vt
