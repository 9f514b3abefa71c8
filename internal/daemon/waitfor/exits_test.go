package waitfor

import (
	"fmt"
	"testing"
)

// The record is bounded: past exitLogMax the oldest exit is forgotten, and
// a name reused reads its most recent exit.
func TestExitLogIsBounded(t *testing.T) {
	t.Parallel()
	var l exitLog
	for i := range exitLogMax + 10 {
		l.note(exitRecord{id: fmt.Sprintf("id-%03d-x", i), name: "job", code: i})
	}
	if len(l.exits) != exitLogMax {
		t.Fatalf("%d records kept, want %d", len(l.exits), exitLogMax)
	}
	if _, ok := l.find("id-000-x"); ok {
		t.Fatal("the oldest exit is still remembered")
	}
	if r, ok := l.find("job"); !ok || r.code != exitLogMax+9 {
		t.Fatalf("a reused name reads %+v, want the most recent exit", r)
	}
	if r, ok := l.find("id-070-x"); !ok || r.code != 70 {
		t.Fatalf("by id: %+v %v", r, ok)
	}
	if _, ok := l.find("id-07"); ok {
		t.Fatal("an ambiguous prefix matched")
	}
	if _, ok := l.find(""); ok {
		t.Fatal("an empty address matched")
	}
}
