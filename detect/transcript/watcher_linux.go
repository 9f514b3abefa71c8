package transcript

import (
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

type inotify struct {
	f    *os.File
	mu   sync.Mutex
	dirs map[int]string
	done chan struct{}
}

const inotifyMask = unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_DELETE

// newSysWatcher opens one non-blocking inotify descriptor. Wrapping it in
// an *os.File puts it on the runtime poller, so Close wakes the reader.
func newSysWatcher(onEvent func(path string)) (sysWatcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, os.NewSyscallError("inotify_init1", err)
	}
	in := &inotify{f: os.NewFile(uintptr(fd), "inotify"), dirs: map[int]string{}, done: make(chan struct{})}
	go in.read(onEvent)
	return in, nil
}

func (in *inotify) add(dir string) (int, error) {
	wd, err := unix.InotifyAddWatch(int(in.f.Fd()), dir, inotifyMask)
	if err != nil {
		return 0, os.NewSyscallError("inotify_add_watch", err)
	}
	in.mu.Lock()
	in.dirs[wd] = dir
	in.mu.Unlock()
	return wd, nil
}

func (in *inotify) remove(wd int) {
	in.mu.Lock()
	delete(in.dirs, wd)
	in.mu.Unlock()
	unix.InotifyRmWatch(int(in.f.Fd()), uint32(wd))
}

func (in *inotify) close() error {
	err := in.f.Close()
	<-in.done
	return err
}

// read is the watcher's one goroutine. Errors end it silently: they would
// name user paths, and the joins degrade to reading on output.
func (in *inotify) read(onEvent func(string)) {
	defer close(in.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := in.f.Read(buf)
		if err != nil {
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameLen := int(ev.Len)
			end := off + unix.SizeofInotifyEvent + nameLen
			if end > n {
				break
			}
			name := buf[off+unix.SizeofInotifyEvent : end]
			for len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			in.mu.Lock()
			dir, ok := in.dirs[int(ev.Wd)]
			in.mu.Unlock()
			if ok && len(name) > 0 {
				onEvent(filepath.Join(dir, string(name)))
			}
			off = end
		}
	}
}
