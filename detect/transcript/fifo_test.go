package transcript_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tuios/tuios/detect/transcript"
)

// A FIFO named as a transcript (by a hook, or lying in the project
// directory) must neither block the reader nor be read: it is refused as
// not a regular file. Without O_NONBLOCK the open would wait forever for a
// writer; go test's -timeout catches that.
func TestAFIFOIsRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "s.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, ok, err := transcript.NewReader(fifo).Read()
	var e *transcript.Error
	if ok || !errors.As(err, &e) || e.Code() != transcript.CodeNotRegular {
		t.Fatalf("read of a FIFO: ok=%v err=%v", ok, err)
	}
	if _, err := transcript.Search(transcript.SearchOptions{Dir: dir}); !errors.As(err, &e) || e.Code() != transcript.CodeNoCandidate {
		t.Fatalf("a search over a FIFO: %v", err)
	}
}
