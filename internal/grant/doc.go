// Package grant names what a program in a pane may do through TUIOS: the
// six grants the README lists under "What a pane may do", and their rules.
//
//	read     its own session (and fan group): listings, captures, agent
//	         state, waits, events, mail and stash reads
//	write    type into the panes of its own session, leave mail there
//	fan      write in its fan group, start agents (start-agent, fan)
//	respond  answer another pane's prompt without the person, type into
//	         a pane that waits on a prompt
//	files    copy files with tuios cp, inside the folder rules
//	admin    everything else; implies read, write, fan and files, never
//	         respond
//
// A Set is a bit set of grants. Parse reads the list forms the CLI, the
// protocol and the config file use ("read,write", "admin", "none");
// Expand adds what admin implies; Missing says what a holder lacks, so a
// refusal can name it.
//
// It owns the names and the implication rule and nothing else: which verb
// needs which grant is the daemon's verb table, where a pane's grants come
// from is the daemon's, and [agents.permissions] is internal/config's.
package grant
