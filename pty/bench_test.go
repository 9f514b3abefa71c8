package pty

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// BenchmarkRoundTrip pushes bytes through `cat` on a raw, non-echoing PTY
// and reads them back. MB/s counts the bytes sent (each travels both ways).
func BenchmarkRoundTrip(b *testing.B) {
	p, err := Start(Options{Argv: []string{"sh", "-c", "stty raw -echo && echo READY && exec cat"}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	// Wait for READY.
	var got []byte
	buf := make([]byte, 64<<10)
	for !bytes.Contains(got, []byte("READY\n")) {
		n, err := p.Read(buf)
		if err != nil {
			b.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	chunk := []byte(strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz<>", 1<<10)[:32<<10])
	b.SetBytes(int64(len(chunk)))
	b.ResetTimer()
	errc := make(chan error, 1)
	go func() {
		for i := 0; i < b.N; i++ {
			if _, err := p.Write(chunk); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	want := int64(b.N) * int64(len(chunk))
	var total int64
	for total < want {
		n, err := p.Read(buf)
		total += int64(n)
		if err != nil {
			if err == io.EOF {
				break
			}
			b.Fatal(err)
		}
	}
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if total != want {
		b.Fatalf("read %d bytes, want %d", total, want)
	}
}

// BenchmarkStartClose measures starting `true` on a PTY, waiting for it and
// closing everything.
func BenchmarkStartClose(b *testing.B) {
	for i := 0; i < b.N; i++ {
		p, err := Start(Options{Argv: []string{"true"}})
		if err != nil {
			b.Fatal(err)
		}
		p.Wait()
		p.Close()
	}
}
