//go:build !linux

package transcript

import "errors"

// newSysWatcher: only Linux has a watcher; elsewhere joins read on output.
func newSysWatcher(func(string)) (sysWatcher, error) {
	return nil, errors.New("transcript: no file watcher on this platform")
}
