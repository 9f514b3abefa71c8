package daemon

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
)

// In-process daemons for the package's tests and benchmarks: each on a
// private socket under its own temporary directory, so tests that use
// them may run in parallel.

// server starts an in-process daemon on a private socket.
func server(tb testing.TB) (*Server, string) {
	tb.Helper()
	return serverWith(tb, nil)
}

// serverWith is server with options changed by set (nil: none).
func serverWith(tb testing.TB, set func(*Options)) (*Server, string) {
	tb.Helper()
	return testServer(tb, set, true)
}

// strictServer is a server that, like the daemon proper, puts every
// process this test binary starts itself inside (boundary.go).
func strictServer(tb testing.TB) (*Server, string) {
	tb.Helper()
	return testServer(tb, nil, false)
}

// cappedServer is a server with connection caps small enough to flood
// in a test.
func cappedServer(tb testing.TB, lim connLimits) (*Server, string) {
	tb.Helper()
	return testServerWith(tb, nil, func(s *Server) { s.ownChildrenOutside, s.limits = true, lim })
}

func testServer(tb testing.TB, set func(*Options), childrenOutside bool) (*Server, string) {
	tb.Helper()
	return testServerWith(tb, set, func(s *Server) { s.ownChildrenOutside = childrenOutside })
}

// testServerWith makes a server, changes it with tune before it listens,
// and serves it until the test ends.
func testServerWith(tb testing.TB, set func(*Options), tune func(*Server)) (*Server, string) {
	tb.Helper()
	dir, err := os.MkdirTemp("", "tb")
	if err != nil {
		tb.Fatal(err)
	}
	sock := filepath.Join(dir, "s", "tuios.sock")
	opt := Options{Socket: sock, Shell: "/bin/sh", Env: []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "PS1=$ ", "ENV="}, StateDir: filepath.Join(dir, "state"),
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: dir}, Config: &config.File{}}
	if set != nil {
		set(&opt)
	}
	srv, err := New(opt)
	if err != nil {
		tb.Fatal(err)
	}
	// The test binary is the daemon here, and it also starts the
	// person's programs and sshd: its own children are not put inside
	// (the boundary tests turn this off, and the CLI's run a real daemon).
	tune(srv)
	if err := srv.Listen(); err != nil {
		tb.Fatal(err)
	}
	go srv.Serve(context.Background())
	tb.Cleanup(func() { srv.Close(); os.RemoveAll(dir) })
	return srv, sock
}
