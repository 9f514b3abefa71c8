package daemon

// paneRoot is the directory a prompt's paths are judged from, as the held
// approvals judge theirs (verbs_approval.go): the pane's directory as it
// last reported it, else the directory it started in. Called without s.mu.
func (r *responder) paneRoot(w *Window) string {
	if d := w.dirNow(); d != "" {
		return d
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return w.cwd
}
