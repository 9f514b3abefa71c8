// Package atomicfile replaces a file whole: a reader, or the next run
// after a crash or a power cut, sees the old file or the new one, never
// half of one.
//
// A write goes to a temporary file in the target's directory (so the
// rename cannot cross file systems), is flushed to disk (fsync), takes its
// mode, and is renamed over the target; then the directory itself is
// flushed so the rename outlives a power cut. A write that fails, or a
// process that dies before the rename, leaves the old file as it was.
//
// It is a standard-library-only leaf, shared by every package that keeps
// state in files: the daemon's state files, the mail stash, config edits
// and hosts, the attach client's notices, integrations and screenshots.
//
// It does not follow a symlink at the target: the link itself is
// replaced by the new file.
package atomicfile
