package agentstate

import "github.com/tuios/tuios/internal/fuzzy"

// nearest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a plausible typo.
func nearest(name string, candidates []string) string {
	best, bestDist := "", len(name)/2+2
	for _, c := range candidates {
		if d := fuzzy.Distance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
