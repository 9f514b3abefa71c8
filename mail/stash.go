package mail

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tuios/tuios/internal/atomicfile"
)

// Stash caps: per file, per session, and per file over a link.
const (
	MaxStashFileBytes = 16 << 20  // one file; a file exactly this size is accepted
	MaxStashBytes     = 256 << 20 // one session
	MaxLinkStashBytes = 8 << 20   // one file over a link, either way
)

// StashOptions configure a Stash.
type StashOptions struct {
	// Dir is the session's stash directory. It is created (mode 0700) on
	// the first put and deleted by Remove. Required.
	Dir string
	// MaxFileBytes and MaxBytes override the caps (tests); 0 takes
	// MaxStashFileBytes and MaxStashBytes.
	MaxFileBytes int64
	MaxBytes     int64
	// Clock stamps stored_at; nil is RealClock.
	Clock Clock
}

// Stash is a session's content-addressed file store: a put copies a file
// in under the sha256 of its bytes plus the source's extension, so the
// same bytes are stored once. Past the session cap the oldest files go
// first, never one a message in the ring still names. There is no delete:
// the files go with Remove (the session ending, the daemon stopping).
//
// This is the package's one file I/O, all of it inside Dir.
type Stash struct {
	opt        StashOptions
	referenced func(path string) bool // set by the ring that owns the stash

	mu        sync.Mutex
	entries   []*StashEntry // oldest first
	bytes     int64
	evictions uint64
	removed   bool
}

// StashEntry is one stored file.
type StashEntry struct {
	Path       string `json:"path"`
	Name       string `json:"name"`
	Hash       string `json:"hash"`
	Bytes      int64  `json:"bytes"`
	MediaType  string `json:"media_type"`
	Kind       string `json:"kind"`
	Source     string `json:"source"` // the path it was copied from
	StoredAt   int64  `json:"stored_at"`
	Referenced bool   `json:"referenced"` // a message in the ring names it (at listing time)
}

// PutResult is a put's answer.
type PutResult struct {
	Entry          StashEntry
	Deduped        bool         // the bytes were already stored; nothing was copied
	Evicted        []StashEntry // files this put deleted to make room
	Evictions      uint64       // files the session's stash has deleted, ever
	SessionBytes   int64
	SessionEntries int
	MaxFileBytes   int64
	MaxBytes       int64
}

// NewStash makes a stash for a directory; nothing is created until a put.
func NewStash(opt StashOptions) *Stash {
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = MaxStashFileBytes
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = MaxStashBytes
	}
	if opt.Clock == nil {
		opt.Clock = RealClock{}
	}
	return &Stash{opt: opt}
}

// Dir is the stash's directory.
func (s *Stash) Dir() string { return s.opt.Dir }

// Holds reports whether path is inside the stash directory. A nil stash
// holds nothing.
func (s *Stash) Holds(path string) bool {
	return s != nil && s.opt.Dir != "" && strings.HasPrefix(filepath.Clean(path), filepath.Clean(s.opt.Dir)+string(filepath.Separator))
}

// Put copies the file at src (absolute, regular, readable) into the stash.
func (s *Stash) Put(src string) (PutResult, error) {
	if !filepath.IsAbs(src) {
		return PutResult{}, errorf(CodeInvalidParams, "path", "give the absolute path, e.g. $PWD/"+src, "%q is not an absolute path", src)
	}
	fi, err := os.Stat(src)
	if err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "path", "the daemon reads the file: it must exist and be readable by the daemon's user", "cannot read %q", src)
	}
	if !fi.Mode().IsRegular() {
		return PutResult{}, errorf(CodeInvalidParams, "path", "stash regular files only", "%q is not a regular file", src)
	}
	if fi.Size() > s.opt.MaxFileBytes {
		return PutResult{}, s.tooBig(src, fi.Size())
	}
	s.mu.Lock()
	if s.removed {
		s.mu.Unlock()
		return PutResult{}, errClosed()
	}
	s.mu.Unlock()
	if err := os.MkdirAll(s.opt.Dir, 0o700); err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "path", "", "cannot create the stash directory: %v", err)
	}
	f, hash, n, err := s.copyIn(src)
	if err != nil {
		return PutResult{}, err
	}
	return s.keep(f, hash, n, stashExt(src), src)
}

// PutBytes stores data as a file sent over a link (stash put -s
// HOST:SESSION): name is the file's name on the sending machine, used only
// for its extension and shown as the source; it never names a path here.
func (s *Stash) PutBytes(name string, data []byte) (PutResult, error) {
	if int64(len(data)) > s.opt.MaxFileBytes {
		return PutResult{}, s.tooBig(name, int64(len(data)))
	}
	s.mu.Lock()
	removed := s.removed
	s.mu.Unlock()
	if removed {
		return PutResult{}, errClosed()
	}
	if err := os.MkdirAll(s.opt.Dir, 0o700); err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "data", "", "cannot create the stash directory: %v", err)
	}
	out, err := atomicfile.Create(s.opt.Dir, atomicfile.Options{Perm: 0o600, Pattern: ".put-*"})
	if err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "data", "", "cannot write to the stash: %v", err)
	}
	if _, err := out.Write(data); err != nil {
		out.Abort()
		return PutResult{}, errorf(CodeInvalidParams, "data", "", "writing to the stash: %v", err)
	}
	if err := out.Sync(); err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "data", "", "writing to the stash: %v", err)
	}
	sum := sha256.Sum256(data)
	return s.keep(out, hex.EncodeToString(sum[:]), int64(len(data)), stashExt(filepath.Base(name)), name)
}

// keep puts a copied-in (and synced) file in place under its
// content-addressed name, making room past the session cap; on any
// refusal the copy is removed. The directory is flushed after the lock is
// released.
func (s *Stash) keep(tmp *atomicfile.File, hash string, n int64, ext, src string) (PutResult, error) {
	res, err := s.keepLocked(tmp, hash, n, ext, src)
	if err == nil && !res.Deduped {
		atomicfile.SyncDir(s.opt.Dir)
	}
	return res, err
}

func (s *Stash) keepLocked(tmp *atomicfile.File, hash string, n int64, ext, src string) (PutResult, error) {
	name := hash + ext
	path := filepath.Join(s.opt.Dir, name)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.removed {
		tmp.Abort()
		return PutResult{}, errClosed()
	}
	for _, e := range s.entries {
		if e.Name == name {
			tmp.Abort()
			return s.result(*e, true, nil), nil
		}
	}
	var evicted []StashEntry
	if s.bytes+n > s.opt.MaxBytes {
		keep := s.entries[:0:0]
		free := s.bytes + n - s.opt.MaxBytes
		for _, e := range s.entries {
			if free > 0 && (s.referenced == nil || !s.referenced(e.Path)) {
				os.Remove(e.Path)
				free -= e.Bytes
				s.bytes -= e.Bytes
				s.evictions++
				evicted = append(evicted, *e)
				continue
			}
			keep = append(keep, e)
		}
		s.entries = keep
		if free > 0 {
			tmp.Abort()
			return PutResult{}, errorf(CodeStashFull, "path", "the files left are named by messages still in the ring; they go as the ring moves on",
				"the session stash has no room for %d bytes (cap %d)", n, s.opt.MaxBytes)
		}
	}
	if err := tmp.Rename(path); err != nil {
		return PutResult{}, errorf(CodeInvalidParams, "path", "", "storing the file: %v", err)
	}
	kind, mt := classify(name)
	e := &StashEntry{Path: path, Name: name, Hash: hash, Bytes: n, MediaType: mt, Kind: kind, Source: src, StoredAt: s.opt.Clock.Now().UnixNano()}
	s.entries = append(s.entries, e)
	s.bytes += n
	return s.result(*e, false, evicted), nil
}

func (s *Stash) tooBig(src string, n int64) *Error {
	return errorf(CodeInvalidParams, "path", "send a smaller file, or split it", "%q is %d bytes, over the %d-byte cap for one file", src, n, s.opt.MaxFileBytes)
}

// copyIn copies src to a temporary file in the stash, hashing it.
func (s *Stash) copyIn(src string) (tmp *atomicfile.File, hash string, n int64, err error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, "", 0, errorf(CodeInvalidParams, "path", "the file must be readable by the daemon's user", "cannot read %q", src)
	}
	defer in.Close()
	out, err := atomicfile.Create(s.opt.Dir, atomicfile.Options{Perm: 0o600, Pattern: ".put-*"})
	if err != nil {
		return nil, "", 0, errorf(CodeInvalidParams, "path", "", "cannot write to the stash: %v", err)
	}
	h := sha256.New()
	n, err = io.Copy(io.MultiWriter(out, h), io.LimitReader(in, s.opt.MaxFileBytes+1))
	if err != nil {
		out.Abort()
		return nil, "", 0, errorf(CodeInvalidParams, "path", "", "copying %q: %v", src, err)
	}
	if n > s.opt.MaxFileBytes { // it grew after the stat
		out.Abort()
		return nil, "", 0, s.tooBig(src, n)
	}
	// Flushed here, before keep takes the stash's lock to rename it.
	if err := out.Sync(); err != nil {
		return nil, "", 0, errorf(CodeInvalidParams, "path", "", "copying %q: %v", src, err)
	}
	return out, hex.EncodeToString(h.Sum(nil)), n, nil
}

// stashExt is the source's extension if it is short and plain, else "".
func stashExt(src string) string {
	ext := filepath.Ext(src)
	if len(ext) < 2 || len(ext) > 16 {
		return ""
	}
	for _, c := range ext[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return ext
}

// result is called with s.mu held.
func (s *Stash) result(e StashEntry, deduped bool, evicted []StashEntry) PutResult {
	if evicted == nil {
		evicted = []StashEntry{}
	}
	return PutResult{Entry: e, Deduped: deduped, Evicted: evicted, Evictions: s.evictions, SessionBytes: s.bytes,
		SessionEntries: len(s.entries), MaxFileBytes: s.opt.MaxFileBytes, MaxBytes: s.opt.MaxBytes}
}

// StashList is what List returns.
type StashList struct {
	Dir       string
	Entries   []StashEntry // oldest first
	Bytes     int64
	Evictions uint64
	MaxBytes  int64
}

// List returns the stored files, oldest first, each with whether a
// message in the ring names it now.
func (s *Stash) List() StashList {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := StashList{Dir: s.opt.Dir, Entries: make([]StashEntry, 0, len(s.entries)), Bytes: s.bytes, Evictions: s.evictions, MaxBytes: s.opt.MaxBytes}
	for _, e := range s.entries {
		c := *e
		c.Referenced = s.referenced != nil && s.referenced(e.Path)
		l.Entries = append(l.Entries, c)
	}
	return l
}

// Get finds a stored file by name, hash or path.
func (s *Stash) Get(key string) (StashEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.entries {
		if e.Name == key || e.Hash == key || e.Path == key {
			return *e, nil
		}
	}
	return StashEntry{}, errorf(CodeInvalidParams, "name", "stash list shows what is stored", "%q is not in this session's stash", key)
}

// Read returns a stored file's bytes, refusing one over max bytes.
func (s *Stash) Read(key string, max int64) ([]byte, StashEntry, error) {
	e, err := s.Get(key)
	if err != nil {
		return nil, e, err
	}
	if e.Bytes > max {
		return nil, e, errorf(CodeInvalidParams, "name", "open the stored path directly on this machine", "%s is %d bytes, over the %d-byte cap for a copy", e.Name, e.Bytes, max)
	}
	b, rerr := os.ReadFile(e.Path)
	if rerr != nil {
		return nil, e, errorf(CodeInvalidParams, "name", "", "reading %s: %v", e.Name, rerr)
	}
	return b, e, nil
}

// Remove deletes the stash directory and everything in it; later puts are
// refused.
func (s *Stash) Remove() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removed = true
	s.entries, s.bytes = nil, 0
	if s.opt.Dir == "" {
		return nil
	}
	return os.RemoveAll(s.opt.Dir)
}
