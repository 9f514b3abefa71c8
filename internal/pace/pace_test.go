package pace

import (
	"fmt"
	"testing"
	"time"
)

func TestABurstGoesAtOnceAndAFloodIsPaced(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	l := New(16*time.Millisecond, 4)
	for i := range 4 {
		if w := l.Wait(t0); w != 0 {
			t.Fatalf("frame %d of a burst waits %v", i, w)
		}
	}
	if w := l.Wait(t0); w != 16*time.Millisecond {
		t.Fatalf("the fifth frame at once waits %v, want one interval", w)
	}
	// A flood: frames as soon as allowed come one interval apart.
	now := t0
	for range 10 {
		w := l.Wait(now)
		now = now.Add(w)
		if w > 0 && l.Wait(now) != 0 {
			t.Fatal("a frame asked again after its wait still waits")
		}
	}
	// A person typing after a quiet spell: every key at once.
	now = now.Add(time.Second)
	for i := range 20 {
		if w := l.Wait(now); w != 0 {
			t.Fatalf("key %d waits %v", i, w)
		}
		now = now.Add(100 * time.Millisecond)
	}
}

func ExampleLimiter() {
	l := New(16*time.Millisecond, 2)
	t0 := time.Unix(0, 0)
	fmt.Println(l.Wait(t0), l.Wait(t0), l.Wait(t0)) // a burst of two, then the third waits
	// Output: 0s 0s 16ms
}
