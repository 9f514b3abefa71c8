package transcript_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tuios/tuios/detect/transcript"
)

// Open gives a caller that reads the file itself the Reader's guarantees:
// a FIFO is refused without blocking, a missing file is fs.ErrNotExist,
// a regular file opens.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var e *transcript.Error
	if f, _, err := transcript.Open(fifo); f != nil || !errors.As(err, &e) || e.Code() != transcript.CodeNotRegular {
		t.Fatalf("a FIFO: %v", err)
	}
	if _, _, err := transcript.Open(dir); !errors.As(err, &e) || e.Code() != transcript.CodeNotRegular {
		t.Fatalf("a directory: %v", err)
	}
	if _, _, err := transcript.Open(filepath.Join(dir, "gone.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
	p := filepath.Join(dir, "s.jsonl")
	os.WriteFile(p, []byte("{}\n"), 0o600)
	f, st, err := transcript.Open(p)
	if err != nil || st.Size() != 3 {
		t.Fatalf("a regular file: %v", err)
	}
	f.Close()
}
