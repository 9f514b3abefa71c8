package daemon

import (
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
)

func TestTrackerFromEnv(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		stall  time.Duration
		detect time.Duration
	}{
		{map[string]string{}, 0, 0},
		{map[string]string{"TUIOS_AGENT_STALL_SECONDS": "0"}, -1, 0},
		{map[string]string{"TUIOS_AGENT_STALL_SECONDS": "45"}, 45 * time.Second, 0},
		{map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, 5 * time.Second},
		{map[string]string{"TUIOS_AGENT_DETECT_SECONDS": "-1"}, 0, -1},
		{map[string]string{"TUIOS_AGENT_AUTODETECT": "off", "TUIOS_AGENT_DETECT_SECONDS": "5"}, 0, -1},
	} {
		var opt detect.TrackerOptions
		trackerFromEnv(&opt, func(k string) string { return c.env[k] })
		if opt.StallAfter != c.stall || opt.DetectInterval != c.detect {
			t.Errorf("%v: stall %v detect %v", c.env, opt.StallAfter, opt.DetectInterval)
		}
	}
	var opt detect.TrackerOptions
	trackerFromEnv(&opt, func(k string) string {
		if k == "TUIOS_AGENT_BINARIES" {
			return "MyAgent, other"
		}
		return ""
	})
	if opt.Detector == nil || !opt.Detector.Names().Contains("myagent") {
		t.Fatal("TUIOS_AGENT_BINARIES did not reach the detector")
	}
}
