package daemon

import (
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
)

func TestTrackerFromConfigAndEnv(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file   string
		env    map[string]string
		stall  time.Duration
		detect time.Duration
	}{
		{"", map[string]string{}, 0, 0},
		{"", map[string]string{"TUIOS_AGENT_STALL_SECONDS": "0"}, -1, 0},
		{"", map[string]string{"TUIOS_AGENT_STALL_SECONDS": "45"}, 45 * time.Second, 0},
		{"", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, 5 * time.Second},
		{"", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "-1"}, 0, -1},
		{"", map[string]string{"TUIOS_AGENT_AUTODETECT": "off", "TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, -1},
		// The file comes first; unset in the file defers to the environment.
		{"[daemon]\nagent_autodetect = false\n", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, -1},
		{"[daemon]\nagent_autodetect = true\n", map[string]string{"TUIOS_AGENT_AUTODETECT": "off"}, 0, 0},
		{"[daemon]\nagent_detect_seconds = 7\n", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, 7 * time.Second},
		{"[daemon]\nagent_detect_seconds = -3\n", map[string]string{}, 0, -1},
		{"[daemon]\nagent_detect_seconds = 0\n", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, 5 * time.Second},
		// Agents off leaves only the multiplexer: no detection, no stall timer.
		{"[agents]\nenabled = false\n", map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5", "TUIOS_AGENT_STALL_SECONDS": "45"}, -1, -1},
	} {
		f, err := config.Parse([]byte(c.file))
		if err != nil {
			t.Fatal(err)
		}
		var opt detect.TrackerOptions
		trackerFromConfig(&opt, f, func(k string) string { return c.env[k] })
		if opt.StallAfter != c.stall || opt.DetectInterval != c.detect {
			t.Errorf("%q %v: stall %v detect %v, want %v %v", c.file, c.env, opt.StallAfter, opt.DetectInterval, c.stall, c.detect)
		}
	}
	f, _ := config.Parse([]byte("[daemon]\nagent_binaries = [\"FileAgent\"]\n"))
	var opt detect.TrackerOptions
	trackerFromConfig(&opt, f, func(k string) string {
		if k == "TUIOS_AGENT_BINARIES" {
			return "MyAgent, other"
		}
		return ""
	})
	if opt.Detector == nil || !opt.Detector.Names().Contains("myagent") || !opt.Detector.Names().Contains("fileagent") {
		t.Fatal("agent_binaries and TUIOS_AGENT_BINARIES did not both reach the detector")
	}
}
