// Package version says which tuios this is: the module version and the VCS
// revision the binary was built from (both from the Go build info, read on
// first use, never at init) and the control protocol it speaks.
package version

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/tuios/tuios/internal/proto"
)

// Info describes a build.
type Info struct {
	// Module is the module version ("devel" for a build from a work tree).
	Module string `json:"version"`
	// Revision is the VCS revision, shortened to 12 characters, with
	// "-dirty" when the work tree had changes; "" when unknown.
	Revision string `json:"revision"`
	// Time is the commit time of Revision (RFC 3339), "" when unknown.
	Time string `json:"revision_time,omitempty"`
	// Go is the toolchain that built it.
	Go string `json:"go_version"`
	// Protocol and MinProtocol are the control protocol versions spoken.
	Protocol    int `json:"protocol"`
	MinProtocol int `json:"min_protocol"`
}

var get = sync.OnceValue(read)

// Get returns this build's Info.
func Get() Info { return get() }

func read() Info {
	in := Info{Module: "devel", Go: runtime.Version(), Protocol: proto.Version, MinProtocol: proto.MinVersion}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		in.Module = v
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(in.Revision) > 12 {
		in.Revision = in.Revision[:12]
	}
	if dirty && in.Revision != "" {
		in.Revision += "-dirty"
	}
	return in
}

// String is the one-line form:
// "tuios devel (rev 9f7df2c1a2b3, protocol 1, go1.26.8)".
func (in Info) String() string {
	rev := in.Revision
	if rev == "" {
		rev = "unknown"
	}
	return "tuios " + in.Module + " (rev " + rev + ", protocol " + strconv.Itoa(in.Protocol) + ", " + in.Go + ")"
}
