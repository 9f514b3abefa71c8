package proto

import "github.com/tuios/tuios/review"

// ReviewDiff is review-diff's result as its readers take it: the CLI's
// text form and the attach client's review overlay.
type ReviewDiff struct {
	Session     string `json:"session"`
	Window      string `json:"window"`
	Name        string `json:"name"`
	Base        string `json:"base"`
	BaseSHA     string `json:"base_sha"`
	Uncommitted bool   `json:"uncommitted"`
	// Against is the other attempt of a fan the diff goes from (its
	// session), AgainstTree the tree its work was read as.
	Against     string `json:"against,omitempty"`
	AgainstTree string `json:"against_tree,omitempty"`
	// Group is the fan the pane's worktree is an attempt of ("" none):
	// w in the client's review compares its attempts.
	Group     string        `json:"group,omitempty"`
	Files     []review.File `json:"files"`
	Totals    review.Totals `json:"totals"`
	Truncated bool          `json:"truncated"`
	Notes     []review.Note `json:"notes"`
}
