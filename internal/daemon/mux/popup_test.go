package mux

import (
	"strings"
	"testing"
)

func TestPopupSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h       string
		cols, rows int
		want       rect
	}{
		{"", "", 100, 30, rect{X: 10, Y: 6, W: 80, H: 18}},
		{"60", "20", 100, 30, rect{X: 20, Y: 5, W: 60, H: 20}},
		{"50%", "50%", 81, 25, rect{X: 20, Y: 6, W: 41, H: 13}}, // rounded to the nearest cell
		{"1", "1", 100, 30, rect{X: 44, Y: 12, W: minPopupCols, H: minPopupRows}},
		{"1000", "100%", 100, 30, rect{W: 100, H: 30}},
		{"", "", 8, 3, rect{W: 8, H: 3}}, // the area cuts even the minimum
	} {
		wd, err := parsePopupDim(c.w, "--width", popupDim{defaultPopupWidthPct, true})
		hd, err2 := parsePopupDim(c.h, "--height", popupDim{defaultPopupHeightPct, true})
		if err != nil || err2 != nil {
			t.Fatalf("%q %q: %v %v", c.w, c.h, err, err2)
		}
		if got := popupRect(&popup{width: wd, height: hd}, c.cols, c.rows); got != c.want {
			t.Errorf("%q x %q in %dx%d: %+v, want %+v", c.w, c.h, c.cols, c.rows, got, c.want)
		}
	}
	for _, bad := range []string{"0", "-5", "0%", "101%", "1001", "5x", "%", "+5", "5 %", "١٢"} {
		if _, err := parsePopupDim(bad, "--width", popupDim{}); err == nil {
			t.Errorf("%q was taken", bad)
		} else if !strings.Contains(err.Message, "--width") {
			t.Errorf("%q: the message does not name --width: %s", bad, err.Message)
		}
	}
}

func FuzzParsePopupDim(f *testing.F) {
	for _, s := range []string{"", "60", "60%", "100%", "0", "-1", "1001", "%", "9999999999999999999", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parsePopupDim(s, "--width", popupDim{80, true})
		if err != nil {
			return
		}
		if d.n < 1 || (d.pct && d.n > 100) || (!d.pct && d.n > 1000) {
			t.Fatalf("%q gave %+v", s, d)
		}
		for _, area := range []int{1, 7, 80, 1000} {
			r := popupRect(&popup{width: d, height: d}, area, area)
			if r.W < 1 || r.H < 1 || r.X < 0 || r.Y < 0 || r.X+r.W > area || r.Y+r.H > area {
				t.Fatalf("%q in %d: %+v leaves the area", s, area, r)
			}
		}
	})
}
