package shot_test

import (
	"fmt"
	"os"

	"github.com/tuios/tuios/internal/shot"
	"github.com/tuios/tuios/vt"
)

// A screen's styled capture, drawn as text for a terminal.
func Example() {
	sc := vt.New(vt.Options{Cols: 20, Rows: 2})
	sc.Write([]byte("\x1b[32mok\x1b[0m done"))
	rows := shot.ParseANSI(sc.Capture(vt.CaptureOptions{ANSI: true}), 20, 2)
	res, err := shot.Render(os.Stdout, shot.Picture{Title: "demo", Cols: 20, Rows: rows}, shot.TXT)
	fmt.Println(res.Width, res.Height, res.Unit, err)
	// Output:
	// ok done
	// 20 1 cells <nil>
}
