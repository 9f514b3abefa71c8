package review_test

import (
	"fmt"

	"github.com/tuios/tuios/review"
)

func Example() {
	checker, err := review.NewChecker(review.RiskConfig{
		Rules: []review.RiskRule{{
			Name:    "kubectl apply",
			Tools:   []string{"Bash"},
			Pattern: `\bkubectl\s+(apply|delete)\b`,
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	hits := checker.Check(review.Request{
		Tool:     "Bash",
		Command:  `cd /src/api && sudo rm -rf /var/cache/api; kubectl apply -f k8s/`,
		Worktree: "/src/api",
		Home:     "/home/me",
	})
	for _, h := range hits {
		fmt.Printf("%s: %s\n", h.Rule, h.Text)
	}
	// Output:
	// recursive delete: sudo rm -rf /var/cache/api
	// sudo: sudo rm -rf /var/cache/api
	// outside the worktree: sudo rm -rf /var/cache/api
	// kubectl apply: kubectl apply -f k8s/
}

func ExampleRequestFromLine() {
	checker, _ := review.NewChecker(review.RiskConfig{})
	req, ok := review.RequestFromLine("approve Bash: git push --force origin main")
	if !ok {
		return
	}
	req.Worktree = "/src/api"
	fmt.Println(req.Tool, checker.Check(req))
	// Output:
	// Bash [{force push can overwrite commits on the remote git push --force origin main}]
}

func ExampleNewChecker_badRule() {
	_, err := review.NewChecker(review.RiskConfig{
		Rules: []review.RiskRule{{Name: "deploy", Pattern: `deploy(`}},
	})
	fmt.Println(err)
	// Output:
	// risk rule "deploy": pattern "deploy(" does not compile: error parsing regexp: missing closing ): `deploy(`
}
