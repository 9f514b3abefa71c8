package detect

// TranscriptFile is the transcript the pane is joined to and the harness
// that writes it; ok is false while it has none (no join, or a hookless
// pane still looking for its file). The path names a file of the
// person's: a caller that serves it keeps it to itself (the tuios daemon
// never puts it on the wire).
func (p *Pane) TranscriptFile() (path, harness string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.join == nil || p.join.r == nil {
		return "", "", false
	}
	return p.join.r.Path(), p.join.harness, true
}

// Home is the home directory transcripts are looked for under
// (TrackerOptions.Home, or the user's home when that was empty).
func (t *Tracker) Home() string { return t.opt.Home }
