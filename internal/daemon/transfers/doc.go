// Package transfers is the copies of tuios cp and tuios transfers: the
// daemon's feature that copies files and folders on this machine for its
// callers, so a copy keeps going after the CLI that started it returns,
// and serves copy, list-transfers, pause-, resume-, cancel-, wait- and
// clear-transfers.
//
// Each copy is one goroutine doing the I/O. A file is written through a
// temporary file beside its destination and renamed over it once whole,
// so a failed or cancelled copy leaves no half file; a folder's symlinks
// are copied as links, never followed, and its devices, fifos and
// sockets are left out. The list is bounded (MaxKept copies, at most
// 100000 files and folders in one) and lives as long as the daemon;
// Shutdown stops every copy and waits for it.
//
// Who may copy: the files grant (core.Copies; never over a link). A pane
// without admin copies only inside its folder (the worktree tuios made
// for its session, else the folder it was started in, else its shell's
// folder as the kernel has it; never what it reports with OSC 7), learns
// nothing about a path outside it, and sees and acts on only the copies
// it started. Every file a held copy opens is checked again, once open,
// against that folder, so a folder swapped for a symlink after the check
// cannot carry the copy out. A read-only connection lists and waits but
// starts, stops and clears nothing.
//
// It reaches the core only through core.Host: the caller (Host.Caller),
// its pane's session and start folder (Find, StartedIn, Worktree, the
// pane's process). Locks: copies.mu is a leaf, no I/O runs under it, and
// the feature calls the core holding none.
//
// What it does not own: copies to or from another machine (refused
// not_supported in this version: the session stash or scp do that), the
// wire types (internal/proto: Transfer, TransferList, CopyParams, …).
package transfers
