package detect

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/transcript"
)

// join ties a pane to its harness's transcript.
type join struct {
	r       *transcript.Reader
	harness string
	exact   bool // from a hook's transcript_path; a search never replaces it
	watched bool
	cancel  func()
}

// joinExact joins the pane to the file a hook named. It replaces a
// searched join; re-joining the same path keeps the read offset.
func (p *Pane) joinExact(path string) {
	path = filepath.Clean(path)
	if p.join != nil && p.join.r.Path() == path {
		p.join.exact = true
		return
	}
	p.dropJoin(false)
	p.startJoin(path, true)
}

func (p *Pane) startJoin(path string, exact bool) {
	j := &join{r: transcript.NewReader(path), harness: p.harness, exact: exact}
	p.join = j
	if cancel, err := p.t.opt.Watcher.Watch(path, func() { p.onTranscript(j) }); err == nil {
		j.watched, j.cancel = true, cancel
	}
	p.readJoin()
}

func (p *Pane) onTranscript(j *join) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.join == j && !p.stopped {
		p.readJoin()
	}
}

// readJoin reads the transcript and publishes its turn at source
// transcript. It never asserts needs_input or idle. Three missing reads
// in a row end the join and yield its claim.
func (p *Pane) readJoin() {
	j := p.join
	obs, ok, err := j.r.Read()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && j.r.Missing() >= transcriptMissingLimit {
			p.dropJoin(true)
		}
		return
	}
	if !ok {
		return
	}
	state := agentstate.Working
	if obs.Turn == transcript.TurnDone {
		state = agentstate.Done
	}
	p.t.arb.Apply(p.id, agentstate.Report{State: state, Source: agentstate.SourceTranscript, Harness: j.harness})
}

func (p *Pane) dropJoin(yield bool) {
	if p.join == nil {
		return
	}
	if p.join.cancel != nil {
		p.join.cancel()
	}
	p.join = nil
	if yield {
		p.t.arb.Yield(p.id, agentstate.SourceTranscript)
	}
}

// maintainJoin runs a hookless, verified search for the transcript of an
// attributed pane, at most once per joinRetry.
func (p *Pane) maintainJoin(m Match) {
	if p.join != nil || p.m == nil || !p.m.Transcript.Enabled() || !m.Agent || m.HarnessID != p.m.ID {
		return
	}
	now := p.t.clock.Now()
	if !p.lastSearch.IsZero() && now.Sub(p.lastSearch) < joinRetry {
		return
	}
	p.lastSearch = now
	fg, err := p.t.det.Foreground(p.shellPID)
	if err != nil || fg.Cwd == "" {
		return
	}
	spec := p.m.Transcript
	dir, ok := transcript.ProjectDir(spec.Dir, p.t.opt.Home, fg.Cwd)
	if !ok {
		return
	}
	path, err := transcript.Search(transcript.SearchOptions{
		Dir: dir, Glob: spec.Glob, Verify: spec.Verify,
		CWD: fg.Cwd, Version: BaseName(m.Process.Exe),
	})
	if err != nil {
		return
	}
	p.startJoin(path, false)
}
