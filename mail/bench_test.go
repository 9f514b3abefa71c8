package mail

import (
	"runtime"
	"strings"
	"testing"
)

func fullRing(b *testing.B) *Ring {
	r := NewRing(RingOptions{Session: "api", RateBurst: -1})
	body := strings.Repeat("x", 1024)
	for i := 0; i < MaxMessages; i++ {
		to := worker
		if i%2 == 1 {
			to = lead
		}
		if _, err := r.Send(SendRequest{From: "33333333", To: to, Subject: "status", Text: strings.Clone(body)}); err != nil { // distinct bodies, as decoded off the wire
			b.Fatal(err)
		}
	}
	return r
}

// BenchmarkSendFullRing: one send into a ring at its cap (so every send
// also evicts).
func BenchmarkSendFullRing(b *testing.B) {
	r := fullRing(b)
	req := SendRequest{From: "33333333", To: worker, Subject: "status", Text: strings.Repeat("x", 1024)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Send(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadUnreadFullRing: a peek of one inbox's unread mail in a full
// ring (128 unread, newest 20 returned).
func BenchmarkReadUnreadFullRing(b *testing.B) {
	r := fullRing(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := r.Read(ReadOptions{Inbox: worker, Unread: true, Peek: true}); len(res.Messages) != DefaultLimit {
			b.Fatal(len(res.Messages))
		}
	}
}

// BenchmarkFullRingMemory reports the heap a full ring of 1 KiB bodies
// holds (bytes/ring).
func BenchmarkFullRingMemory(b *testing.B) {
	var before, after runtime.MemStats
	rings := make([]*Ring, 0, b.N)
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < b.N; i++ {
		rings = append(rings, fullRing(b))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(b.N), "bytes/ring")
	runtime.KeepAlive(rings)
}
