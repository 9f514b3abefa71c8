package cli_test

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/shot"
)

// inkBox is the bounding box of the pixels of colour c, and how many.
func inkBox(img image.Image, c color.RGBA) (image.Rectangle, int) {
	var box image.Rectangle
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
			}
		}
	}
	return box, n
}

func TestScreenshotOfADetachedPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "build", "--no-focus")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "build", "--pattern", `(?m)^\$`, "--timeout", "10000")
	// Seven cells on red, GREEN in bold green, and hostile text that
	// must stay text in every format.
	e.ok("send-text", "-s", "work", "-w", "build",
		`clear; printf '\033[41m  RED  \033[0m \033[1;32mGREEN\033[0m \033]0;title\007</svg><script>x</script>"><img onerror=y>\n'; echo DONE_$((40+2))`+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "build", "--pattern", "DONE_42", "--timeout", "10000")

	// The default: a PNG in the private screenshots directory, its
	// absolute path on stdout.
	out := strings.TrimSpace(e.ok("screenshot", "-s", "work", "-w", "build"))
	dir := filepath.Join(e.dir, "home", ".local", "state", "tuios", "screenshots")
	if filepath.Dir(out) != dir || !regexp.MustCompile(`^work-build-\d{8}T\d{6}Z\.png$`).MatchString(filepath.Base(out)) {
		t.Fatalf("path %q, want %s/work-build-<UTC time>.png", out, dir)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("screenshots directory: %v %v, want mode 0700", fi, err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("screenshot file: %v %v, want mode 0600", fi, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if w, h := shot.PNGSize(80, 24); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("image is %v, want the 80x24 pane framed: %dx%d", img.Bounds(), w, h)
	}
	// The red background covers exactly seven cells of one row (the
	// glyphs of RED are drawn in the default colour over it).
	w0, h0 := shot.PNGSize(0, 0)
	w1, h1 := shot.PNGSize(1, 1)
	cw, ch := w1-w0, h1-h0 // one cell in pixels
	box, n := inkBox(img, color.RGBA{0xcd, 0, 0, 0xff})
	if box.Dx() != 7*cw || box.Dy() != ch || n < 4*cw*ch {
		t.Fatalf("red background: box %v (%d pixels), want %dx%d", box, n, 7*cw, ch)
	}
	if gbox, n := inkBox(img, color.RGBA{0, 0xcd, 0, 0xff}); n == 0 || gbox.Min.Y < box.Min.Y || gbox.Max.Y > box.Max.Y || gbox.Min.X < box.Max.X {
		t.Fatalf("GREEN is not drawn in green right of the red cells: %v (%d pixels)", gbox, n)
	}

	// --json, an explicit --out in svg, and the window as an argument.
	svgPath := filepath.Join(e.dir, "shot.svg")
	var res struct {
		Path     string   `json:"path"`
		Format   string   `json:"format"`
		Width    int      `json:"width"`
		Height   int      `json:"height"`
		Warnings []string `json:"warnings"`
	}
	raw := e.ok("screenshot", "-s", "work", "build", "--out", svgPath, "--json")
	if err := json.Unmarshal([]byte(raw), &res); err != nil || res.Path != svgPath || res.Format != "svg" || res.Width == 0 || res.Height == 0 || res.Warnings == nil {
		t.Fatalf("--json: %v %s", err, raw)
	}
	svg, _ := os.ReadFile(svgPath)
	if fi, _ := os.Stat(svgPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("--out file mode %v, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(string(svg), `fill="#cd0000"`) || !strings.Contains(string(svg), "&lt;/svg&gt;&lt;script&gt;") || strings.Contains(string(svg), "<script") || strings.Contains(string(svg), "<img") {
		t.Fatalf("svg lost the colours or let the pane's markup through:\n%s", svg)
	}
	html := e.ok("screenshot", "-s", "work", "-w", "build", "--format", "html", "--out", filepath.Join(e.dir, "shot.html"))
	if page, _ := os.ReadFile(strings.TrimSpace(html)); strings.Contains(string(page), "<script") || !strings.Contains(string(page), "GREEN</span>") {
		t.Fatalf("html:\n%s", page)
	}
	ansiPath := strings.TrimSpace(e.ok("screenshot", "-s", "work", "-w", "build", "--format", "ansi"))
	ansi, _ := os.ReadFile(ansiPath)
	if !strings.HasSuffix(ansiPath, ".ansi") || !strings.Contains(string(ansi), "\x1b[0;41m  RED  ") {
		t.Fatalf("ansi %s:\n%q", ansiPath, ansi)
	}
	if rest := regexp.MustCompile("\x1b\\[[0-9;:]*m").ReplaceAllString(string(ansi), ""); strings.ContainsAny(rest, "\x1b\x07") {
		t.Fatalf("the ansi file carries escapes other than SGR: %q", rest)
	}

	// --out's extension picks the format; an existing file is replaced.
	txtPath := filepath.Join(e.dir, "shot.txt")
	os.WriteFile(txtPath, []byte("old"), 0o644)
	e.ok("screenshot", "-s", "work", "-w", "build", "--out", txtPath)
	if txt, _ := os.ReadFile(txtPath); !strings.Contains(string(txt), "  RED   GREEN </svg><script>") || strings.Contains(string(txt), "\x1b") {
		t.Fatalf("--out shot.txt should hold the plain text:\n%q", txt)
	}

	// Errors: an unknown format names the five; a directory is refused
	// and nothing is written.
	r := e.run("screenshot", "-s", "work", "-w", "build", "--format", "jpeg")
	if r.code != 1 || !strings.Contains(r.err, "invalid_params") || !strings.Contains(r.err, "png, svg, ansi, html, txt") {
		t.Fatalf("--format jpeg: exit %d\n%s", r.code, r.err)
	}
	r = e.run("screenshot", "-s", "work", "-w", "build", "--out", e.dir)
	if r.code != 1 || !strings.Contains(r.err, "is a directory") {
		t.Fatalf("--out DIR: exit %d\n%s", r.code, r.err)
	}
	r = e.run("screenshot", "-s", "work", "-w", "nosuch")
	if r.code != 1 || !strings.Contains(r.err, "window_not_found") {
		t.Fatalf("-w nosuch: exit %d\n%s", r.code, r.err)
	}

	// The PNG attaches to a message as an image.
	e.ok("send-agent-message", "-s", "work", "-w", "build", "--attach", out, "the failure, in colour")
	var rd struct {
		Messages []struct {
			Attachments []struct {
				Path    string `json:"path"`
				Kind    string `json:"kind"`
				Missing bool   `json:"missing"`
			} `json:"attachments"`
		} `json:"messages"`
	}
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "build")
	if len(rd.Messages) != 1 || len(rd.Messages[0].Attachments) != 1 || rd.Messages[0].Attachments[0].Kind != "image" || rd.Messages[0].Attachments[0].Missing {
		t.Fatalf("attachment: %+v", rd.Messages)
	}
}

func TestScreenshotScrollback(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work", "-n", "logs")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	e.ok("send-text", "-s", "work", "seq 1 700; echo END_$((1+1))\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "END_2", "--timeout", "10000")
	var res struct {
		Path    string `json:"path"`
		Rows    int    `json:"rows"`
		History int    `json:"history"`
		Height  int    `json:"height"`
	}
	e.json(&res, "screenshot", "-s", "work", "--scrollback", "--format", "txt")
	txt, _ := os.ReadFile(res.Path)
	lines := strings.Split(strings.TrimSuffix(string(txt), "\n"), "\n")
	if res.History != 500 || res.Rows != 24 || res.Height != 524 || len(lines) != 524 {
		t.Fatalf("--scrollback: history %d rows %d height %d, %d lines; want the last 500 history lines above 24 rows", res.History, res.Rows, res.Height, len(lines))
	}
	if lines[len(lines)-24] == "" || !strings.Contains(string(txt), "\n700\n") || strings.Contains(string(txt), "\n100\n") {
		t.Fatalf("the history is not the most recent 500 lines:\n%s", txt)
	}
	var png struct {
		Height int `json:"height"`
	}
	e.json(&png, "screenshot", "-s", "work", "--scrollback", "--out", filepath.Join(e.dir, "long.png"))
	if _, h := shot.PNGSize(80, 524); png.Height != h {
		t.Fatalf("png with history is %d px high, want %d", png.Height, h)
	}
}

// A PNG of the pretend agent on its permission prompt, with the state
// glyphs, a spinner and accented letters printed above it: every
// character is drawn (Go Mono or a shape), none as a missing-glyph box.
func TestScreenshotDrawsAgentGlyphs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "agent", "--", "sh", "-c",
		`printf '● ▲ ■ ✳ ❯ ✓ — ⠋ ◐ ⏺ ⎿ café naïve\n'; exec `+e.bin+` pretend-agent -as ''`)
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", "Do you want to proceed", "--timeout", "15000")
	var res struct {
		Path     string   `json:"path"`
		Warnings []string `json:"warnings"`
	}
	e.json(&res, "screenshot", "-s", "work", "-w", "agent", "--out", filepath.Join(e.dir, "agent.png"))
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %q", res.Warnings)
	}
	f, err := os.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
}
