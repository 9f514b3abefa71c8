//go:build !linux

package daemon

import (
	"errors"

	"golang.org/x/sys/unix"
)

// becomeSubreaper: there is no child subreaper outside Linux. A process
// that leaves its pane (setsid and its parent exits) is re-parented to
// launchd or init, and the daemon no longer finds it by its ancestry:
// the boundary here rests on ancestry while it lasts, the terminal
// session and the environment (doc.go says what that leaves open).
func becomeSubreaper() error { return errors.New("no child subreaper on this system") }

// subreaperHolds says whether the kernel keeps orphans on this side.
const subreaperHolds = false

// childPids: nothing is re-parented here, so there are no orphans to find.
func childPids() []int { return nil }

func reapPid(int) {}

func sessionOfSelf() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return -1
	}
	return sid
}
