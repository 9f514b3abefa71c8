package inbox

// Config opens, updates or closes the item about a config change: thing
// is what it is about ("permissions": a change to config.toml that gives
// panes or other machines more waits for tuios config apply; "widened":
// the daemon started with wider grants than at its last run), summary
// the line the person reads. An empty summary closes the item
// (resolved). It stands for no pane and no state.
func (q *Queue) Config(thing, summary string) []Event {
	if thing == "" {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := ConfigKey(thing)
	var evs []Event
	if summary == "" {
		q.end(&evs, k, ReasonResolved)
		return evs
	}
	it := Item{Kind: KindConfig, Thing: thing, Name: "config", Summary: CleanSummary(summary)}
	q.put(&evs, k, it, q.clock.Now())
	return evs
}
