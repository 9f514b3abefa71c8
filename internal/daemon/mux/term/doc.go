// Package term is one pane's terminal, as the daemon runs it: the
// process on its PTY, the ordered queue of what is typed into it, the
// tracked screen its output feeds (a detect.Pane of the daemon's
// tracker) and the process's exit.
//
// A Term has one goroutine, its reader (Run starts it): each chunk of
// output is written to the tracked pane, then handed to Options.OnOutput.
// The exit is noted once, by whichever sees it first (the reader reaching
// the end of the terminal, or the daemon's exit watcher calling
// CheckExit); it waits for the output printed before the exit (at most
// exitSettle), reaps the process, marks the tracked pane exited, and then
// calls Options.OnExit on a goroutine of its own.
//
// What it does not own: which session and window the pane is, its place
// on screen, its name and title, its grants (the core's table, under the core's
// lock, which nothing here takes); who may type into it (the core's write
// path); what a client sees of it (the attach streams). Its own lock
// guards only the output and exit records and is a leaf: no callback,
// no I/O and no other lock is taken under it.
package term
