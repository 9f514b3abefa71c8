package tui

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/tuios/tuios/internal/proto"
)

// echoModel is a 120x40 client showing one shell pane, as the attach
// benchmark has it, with a screen that draws the frames it composes.
func echoModel(b testing.TB) (*Model, *screen) {
	m := NewModel(Options{}, nil, 120, 40)
	m.Update(attachedMsg{nonce: "N1", session: "S"})
	cols, rows := m.AreaSize()
	m.Update(proto.AttachLayout{Type: "layout", Session: "S", Workspace: 1, Focused: "w1", Cols: cols, Rows: rows,
		Windows:    []proto.AttachWindow{{ID: "w1", Index: 0, Name: "sh", X: 0, Y: 0, Width: cols, Height: rows}},
		Workspaces: []proto.AttachWorkspace{{N: 1, Windows: 1}},
		Sessions:   []proto.AttachSession{{Name: "S", Windows: 1, Current: true}}})
	lines := make([]proto.AttachLine, rows-1)
	for y := range lines {
		lines[y] = proto.AttachLine{Y: y, Text: strings.Repeat(" ", cols)}
	}
	lines[0].Text = "$ " + strings.Repeat(" ", cols-2)
	m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: cols, Rows: rows - 1, Full: true, Lines: lines,
		Cursor: proto.AttachCursor{X: 2, Y: 0, Visible: true}})
	scr := newScreenProfile(io.Discard, colorprofile.TrueColor, 120, 40)
	scr.open = true
	scr.draw(m.compose(), m.cursor(), m.mouseMode())
	return m, scr
}

// BenchmarkEchoFrame is the client's part of a key's echo once the
// stream line is read: the screen line decoded, the model updated, the
// frame composed and the changed cells written.
func BenchmarkEchoFrame(b *testing.B) {
	m, scr := echoModel(b)
	cols, _ := m.AreaSize()
	var wire [2][]byte
	for i, text := range []string{"$ a", "$ "} {
		msg := proto.AttachScreen{Type: "screen", Window: "w1", Cols: cols, Rows: 38,
			Lines:  []proto.AttachLine{{Y: 0, Text: text + strings.Repeat(" ", cols-len(text))}},
			Cursor: proto.AttachCursor{X: len(text), Y: 0, Visible: true}}
		wire[i], _ = json.Marshal(msg)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var s proto.AttachScreen
		if err := json.Unmarshal(wire[i%2], &s); err != nil {
			b.Fatal(err)
		}
		m.Update(s)
		scr.draw(m.nextFrame(), m.cursor(), m.mouseMode())
	}
}
