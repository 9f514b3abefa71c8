package transcript

import (
	"errors"
	"io/fs"
	"os"
)

// Open opens a transcript for a caller that reads it itself, with the
// Reader's guarantees: it never blocks on a FIFO, never takes a terminal
// as a controlling terminal, and refuses (code not_regular) anything but
// a regular file. A missing file matches fs.ErrNotExist. The caller closes
// the file; st is its fstat.
func Open(path string) (f *os.File, st os.FileInfo, err error) {
	f, err = os.OpenFile(path, openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, &Error{code: CodeNotExist, Err: fs.ErrNotExist}
		}
		return nil, nil, &Error{code: CodeUnreadable, Err: errors.Unwrap(err)}
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, &Error{code: CodeUnreadable}
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{code: CodeNotRegular}
	}
	return f, st, nil
}
