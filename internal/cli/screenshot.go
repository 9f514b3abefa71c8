package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/shot"
)

// screenshotCommands is `tuios screenshot`: the daemon sends a pane's
// styled cells and its size (the screenshot verb), and the picture is
// drawn here (internal/shot), so the daemon never holds an image and the
// file is written by the person's own user, where they can open it.
func screenshotCommands() []Command {
	return []Command{{
		Name: "screenshot", Summary: "render a pane as an image (png, svg, html) or styled text", Usage: "[-s NAME] [-w WINDOW | WINDOW] [--format png|svg|ansi|html|txt] [--out PATH] [--scrollback] [--json]",
		Help: "capture-pane gives you the text; screenshot draws the pane for a person to look at, colours and styles kept, in a frame with the pane's name as its title. It prints the absolute path it wrote and works on a detached session. " +
			"--format takes png (the default, or what --out's extension names), svg, ansi (the cells with SGR colour sequences and nothing else, in a frame; cat it), html (a standalone page that runs no scripts) or txt (the plain text). " +
			"Without --out the file goes to a private directory of yours ($XDG_STATE_HOME/tuios/screenshots, else ~/.local/state/tuios/screenshots, mode 0700) as SESSION-WINDOW-UTCTIME.EXT; --out writes exactly there (mode 0600; an existing file is replaced, a directory refused). " +
			"--scrollback puts up to the last 500 lines of the pane's history above the screen, with a dotted line where the screen starts. " +
			"The PNG is drawn in Go Mono (regular and bold, antialiased): accented letters and most symbols from the font, box-drawing and block characters as lines, the agent glyphs it lacks (✳ ✻ ⏺ ⎿ ❯ ✓ ✗, braille spinners, ◐, ◇ ✦, ⚠) as shapes; anything else (CJK, emoji) as a box, and a warning says how many (svg and html keep every character). " +
			"--json prints the path, format, size (pixels for png and svg, cells otherwise) and warnings. The path can be attached to a message: tuios send-agent-message --attach PATH.",
		Example: "tuios screenshot -s work -w build\ntuios screenshot -s work -w build --format svg --out /tmp/build.svg\np=$(tuios screenshot -w build --scrollback) && tuios send-agent-message -w review --attach \"$p\" 'the failure, in colour'",
		Flags: func(fs *FlagSet) {
			targetFlags(fs)
			fs.String("format", "", "png, svg, ansi, html or txt (default: --out's extension, else png)")
			fs.String("out", "", "the file to write (default: a new file in your screenshots directory)")
			fs.Bool("scrollback", false, "put up to 500 lines of history above the screen")
			jsonFlag(fs)
		},
		Run: runScreenshot,
	}}
}

// screenshotResult is what --json prints.
type screenshotResult struct {
	Path     string   `json:"path"`
	Format   string   `json:"format"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Unit     string   `json:"unit"`
	Cols     int      `json:"cols"`
	Rows     int      `json:"rows"`
	History  int      `json:"history"`
	WindowID string   `json:"window_id"`
	Session  string   `json:"session"`
	Warnings []string `json:"warnings"`
}

func runScreenshot(ctx *Context) error {
	out := str(ctx, "out")
	format, err := screenshotFormat(str(ctx, "format"), out)
	if err != nil {
		return err
	}
	if out != "" {
		if out, err = filepath.Abs(out); err != nil {
			return &Error{Code: "invalid_params", Message: fmt.Sprintf("--out: %v", err)}
		}
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return usageError("name a file inside it: --out "+filepath.Join(out, "shot."+string(format)), "--out %s is a directory", out)
		}
	}
	var pane proto.PaneScreenshot
	p := proto.ScreenshotParams{Session: str(ctx, "session"), Window: windowArg(ctx), Scrollback: flagBool(ctx, "scrollback")}
	if err := callCtx(ctx, "screenshot", p, &pane); err != nil {
		return err
	}
	var warnings []string
	rows := shot.ParseANSI(pane.Content, pane.Cols, pane.History+pane.Rows)
	hist := min(pane.History, len(rows))
	if format == shot.PNG {
		// A long history is cut from the top rather than refused, so the
		// picture still shows the screen.
		for hist > 0 {
			if w, h := shot.PNGSize(pane.Cols, len(rows)); w*h <= shot.MaxPixels {
				break
			}
			cut := min(hist, max(hist/2, 1))
			rows, hist = rows[cut:], hist-cut
			warnings = append(warnings[:0], fmt.Sprintf("the history was cut to its last %d lines to keep the PNG under %d megapixels", hist, shot.MaxPixels>>20))
		}
	}
	title := pane.Session + ":" + pane.DisplayName
	if host := remoteOf(p); host != "" {
		title = host + ":" + title
	}
	var buf bytes.Buffer
	res, err := shot.Render(&buf, shot.Picture{Title: title, Cols: pane.Cols, Rows: rows, History: hist}, format)
	if err != nil {
		return &Error{Code: "command_failed", Message: err.Error(), Hint: "try --format svg, or leave out --scrollback"}
	}
	warnings = append(warnings, res.Warnings...)
	if out == "" {
		window := pane.Name
		if window == "" {
			window = pane.WindowID[:min(8, len(pane.WindowID))]
		}
		out, err = writeNewScreenshot(pane.Session, window, format, buf.Bytes())
	} else {
		err = writeFileAt(out, buf.Bytes())
	}
	if err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, screenshotResult{Path: out, Format: string(format), Width: res.Width, Height: res.Height, Unit: res.Unit,
			Cols: pane.Cols, Rows: pane.Rows, History: hist, WindowID: pane.WindowID, Session: pane.Session, Warnings: append([]string{}, warnings...)})
	}
	for _, w := range warnings {
		fmt.Fprintf(ctx.Stderr, "tuios: warning: %s\n", w)
	}
	_, err = fmt.Fprintln(ctx.Stdout, out)
	return err
}

// screenshotFormat is --format, else the format --out's extension names,
// else PNG.
func screenshotFormat(flag, out string) (shot.Format, error) {
	if flag == "" {
		if f, ok := shot.ParseFormat(strings.TrimPrefix(filepath.Ext(out), ".")); ok {
			return f, nil
		}
		return shot.PNG, nil
	}
	f, ok := shot.ParseFormat(flag)
	if !ok {
		var names []string
		for _, f := range shot.Formats() {
			names = append(names, string(f))
		}
		return "", usageError("accepted: "+strings.Join(names, ", "), "unknown --format %q", flag)
	}
	return f, nil
}

// screenshotDir is the user's private screenshots directory, made 0700.
func screenshotDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", &Error{Code: "command_failed", Message: "no screenshots directory: " + err.Error(), Hint: "name the file with --out"}
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "tuios", "screenshots")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", &Error{Code: "command_failed", Message: err.Error(), Hint: "name the file with --out"}
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return "", &Error{Code: "command_failed", Message: dir + " is not a directory", Hint: "name the file with --out"}
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", &Error{Code: "command_failed", Message: err.Error(), Hint: "name the file with --out"}
		}
	}
	return dir, nil
}

// writeNewScreenshot writes b to a new file SESSION-WINDOW-UTCTIME.EXT in
// the screenshots directory, never over an existing one (a second shot in
// the same second gets -2, -3 …).
func writeNewScreenshot(session, window string, f shot.Format, b []byte) (string, error) {
	dir, err := screenshotDir()
	if err != nil {
		return "", err
	}
	stem := fileWord(session) + "-" + fileWord(window) + "-" + time.Now().UTC().Format("20060102T150405Z")
	for n := 1; n < 100; n++ {
		name := stem
		if n > 1 {
			name += fmt.Sprintf("-%d", n)
		}
		path := filepath.Join(dir, name+"."+string(f))
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", &Error{Code: "command_failed", Message: err.Error(), Hint: "name the file with --out"}
		}
		_, err = fh.Write(b)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", &Error{Code: "command_failed", Message: err.Error(), Hint: "name the file with --out"}
		}
		return path, nil
	}
	return "", &Error{Code: "command_failed", Message: "too many screenshots named " + stem, Hint: "name the file with --out"}
}

// writeFileAt writes b to path (mode 0600) through a temporary file in the
// same directory, so a reader never sees half a picture.
func writeFileAt(path string, b []byte) error {
	fail := func(err error) error {
		return &Error{Code: "command_failed", Message: "writing " + path + ": " + err.Error(), Hint: "check that the directory exists and is writable"}
	}
	if err := atomicfile.WriteFile(path, b, atomicfile.Options{Perm: 0o600}); err != nil {
		return fail(err)
	}
	return nil
}

// fileWord makes a session or window name safe in a file name: letters,
// digits, dot, dash and underscore kept, anything else an underscore, at
// most 48 bytes.
func fileWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 48 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.' && b.Len() > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "pane"
	}
	return b.String()
}
