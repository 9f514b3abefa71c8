package grant_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/grant"
)

func Example() {
	lead, _ := grant.Parse("admin")
	worker, _ := grant.Parse("read,write")
	fmt.Println(lead.Has(grant.Write), lead.Has(grant.Respond))
	fmt.Println(lead.Covers(worker), worker.Covers(lead))
	fmt.Println(worker.Missing(grant.Fan | grant.Write))
	// Output:
	// true false
	// true false
	// fan
}
