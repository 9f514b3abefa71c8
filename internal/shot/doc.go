// Package shot renders a picture of one terminal pane — a grid of styled
// cells, its history above its screen if wanted, a frame around it with
// the pane's name as the title — to PNG, SVG, HTML, text with SGR
// sequences, or plain text. It is what `tuios screenshot` writes, and a Go
// program that holds a vt.Screen can use it the same way:
//
//	pic := shot.Picture{Title: "work:build", Cols: cols, Rows: shot.ParseANSI(sc.Capture(vt.CaptureOptions{ANSI: true}), cols, rows)}
//	res, err := shot.Render(f, pic, shot.PNG)
//
// # What it owns, and what it does not
//
// shot owns the reading of a styled capture (ParseANSI: text with SGR
// sequences, one line per row, as vt.Screen.Capture and the daemon's
// capture-pane and screenshot verbs write it), the colour palette (xterm's
// 16 colours, the 6×6×6 cube and the grey ramp, on a dark background), the
// frame, and the five encodings. It does not own the screen model (package
// vt), talking to a daemon, or where files go (the CLI decides that).
//
// # Pane text is data
//
// Every string in a Picture may have come from a program in a pane, so it
// is treated as hostile: ParseANSI keeps SGR sequences and printable text
// only (every other escape sequence and control character is dropped), and
// each encoder cleans cell text again (controls, bidirectional overrides and
// non-characters become U+FFFD or are removed) before escaping it for its
// format: XML/HTML entities in SVG and HTML (whose only styles are colours
// the renderer formats itself, under a Content-Security-Policy that allows
// no scripts), nothing but SGR sequences in ANSI.
//
// # PNG
//
// The PNG is drawn in Go Mono (golang.org/x/image/font/gofont: gomono, and
// gomonobold for bold), antialiased, at 15 px in 9×19-pixel cells. The
// fonts are parsed the first time a PNG is drawn (font.go), never at
// start-up. Box-drawing characters (U+2500–U+257F) and block elements
// (U+2580–U+259F) are drawn as lines and blocks that meet across cells,
// since terminal programs frame their dialogs with them. The characters
// agent CLIs draw their state with that Go Mono lacks (Claude Code's
// spinner ✢ ✳ ✶ ✻ ✽, ⏺, ⎿ and ❯, ✓ ✗, braille spinner frames, ◐ ◑ ◒ ◓,
// ◇ ✦, small triangles, ⚠, ☐ ☑) are drawn as antialiased shapes
// (shapes.go). A letter and its combining marks are composed (NFC) when
// Unicode has the precomposed letter. Anything else (CJK, emoji) is
// drawn as a hollow box in its colour and counted in the result's
// warnings. Dim is half-way to the background, inverse swaps the
// colours, and underline, double underline and strike-through are
// lines; italic and blink are not drawn (svg and html keep italic).
package shot
