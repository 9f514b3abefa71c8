package attention

import "github.com/tuios/tuios/internal/daemon/core"

// Each part of the attention set is a feature of its own, inited in the
// order the daemon lists them: the Inbox's store first, the reply queue
// before the review notes that send through it, the held approvals
// before the prompts (peek-prompt, respond) that read them first.
var (
	_ core.Feature = (*Store)(nil)
	_ core.Feature = (*Queue)(nil)
	_ core.Feature = (*Review)(nil)
	_ core.Feature = (*Asks)(nil)
	_ core.Feature = (*Holds)(nil)
	_ core.Feature = (*Prompts)(nil)
)
