package inbox

import "github.com/tuios/tuios/review"

// mergeRisk is the hits of a and b, each rule once (a's hit first), in the
// checker's hit order with "cut short" last and any rule it does not know
// after that; without a checker, a's then b's.
func (q *Queue) mergeRisk(a, b []review.Hit) []review.Hit {
	if len(b) == 0 {
		return a
	}
	var all []review.Hit
	seen := map[string]bool{}
	for _, h := range append(append([]review.Hit(nil), a...), b...) {
		if !seen[h.Rule] {
			seen[h.Rule] = true
			all = append(all, h)
		}
	}
	if q.risk == nil {
		return all
	}
	out := make([]review.Hit, 0, len(all))
	taken := make([]bool, len(all))
	for _, name := range append(q.risk.Rules(), review.RuleCutShort) {
		for i, h := range all {
			if h.Rule == name && !taken[i] {
				out, taken[i] = append(out, h), true
			}
		}
	}
	for i, h := range all {
		if !taken[i] {
			out = append(out, h)
		}
	}
	return out
}
