package integration

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// States a harness's integration can be in.
const (
	StateInstalled     = "installed"
	StateOutOfDate     = "out of date"
	StateNotInstalled  = "not installed"
	StateNoIntegration = "no integration"
	StateCannotRead    = "cannot read"
)

// Status is one harness's row.
type Status struct {
	Harness   string  `json:"harness"`
	Name      string  `json:"name"`
	State     string  `json:"state"`
	Detail    string  `json:"detail,omitempty"` // the line under the row
	Reports   Reports `json:"reports"`
	File      string  `json:"file,omitempty"`
	Program   string  `json:"program,omitempty"` // the program its hooks run
	Version   int     `json:"version,omitempty"` // the installed integration's version
	Current   int     `json:"current_version,omitempty"`
	OnPath    string  `json:"on_path,omitempty"` // where the harness's command is, "" when not on PATH
	ConfigDir bool    `json:"config_dir"`        // the harness has run on this machine
	// Untested says how the integration was built when the harness itself
	// never ran where tuios was built: from which documentation, and that
	// nothing more than that is claimed. Detail carries it too.
	Untested string `json:"untested,omitempty"`
}

// StatusOf reads how one harness stands.
func StatusOf(h Harness, env Env) Status {
	st := Status{Harness: h.ID, Name: h.Name, Reports: h.Reports, File: h.File(env), Current: h.Version}
	if h.Binary != "" {
		if p, err := exec.LookPath(h.Binary); err == nil {
			st.OnPath = p
		}
	}
	if h.Reports == ReportsNothing {
		st.State, st.Detail, st.Current = StateNoIntegration, h.Reason, 0
		return st
	}
	if fi, err := os.Stat(h.ConfigDir(env)); err == nil && fi.IsDir() {
		st.ConfigDir = true
	}
	path, err := resolve(st.File)
	if err != nil {
		st.State, st.Detail = StateCannotRead, err.Error()
		return st
	}
	text, exists, err := readFile(path)
	if err != nil {
		st.State, st.Detail = StateCannotRead, err.Error()
		return st
	}
	st.State = StateNotInstalled
	if !st.ConfigDir {
		st.Detail = h.Name + " has not run on this machine; run it once first"
	}
	switch {
	case h.hooks != nil || h.doc() != nil:
		state := func(text, harness string, version int) (bool, bool, string, error) {
			if d := h.doc(); d != nil {
				return d.state(text, harness, version)
			}
			return h.hooks.state(text, harness, version)
		}
		installed, current, cmd, err := state(text, h.ID, h.Version)
		if err != nil {
			st.State, st.Detail = StateCannotRead, "cannot parse "+st.File+": "+err.Error()
			return st
		}
		if installed {
			st.Program = programOf(cmd)
			st.Version = versionOf(h.ID, cmd)
			st.State = StateOutOfDate
			if current {
				st.State = StateInstalled
			}
		}
	case h.owned != nil:
		if !exists {
			return st
		}
		ours, v := ownedState(text, exists, h.ID)
		if !ours {
			st.State, st.Detail = StateCannotRead, st.File+" exists and was not written by tuios"
			return st
		}
		st.Version, st.Program = v, programInOwned(text, h.owned.comment)
		st.State = StateOutOfDate
		if v == h.Version {
			st.State = StateInstalled
		}
	}
	if st.State == StateInstalled && st.Program != "" {
		st.Detail = "its hooks run " + st.Program
	}
	if st.State == StateOutOfDate {
		st.Detail = "an older tuios installed it; tuios integration install " + h.ID + " updates it"
	}
	if h.untested != "" {
		st.Untested = h.untested
		// First, so that a narrow Agents tab that cuts the line still says it.
		st.Detail = strings.TrimSuffix(h.untested+"; "+st.Detail, "; ")
	}
	return st
}

// versionOf is the integration version a harness's hook command names.
func versionOf(harness, cmd string) int {
	v := 0
	if m := ourCommand(harness).FindStringSubmatch(cmd); m != nil {
		v, _ = strconv.Atoi(m[1])
	}
	return v
}
