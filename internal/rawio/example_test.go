package rawio_test

import (
	"fmt"
	"io"
	"os"

	"github.com/tuios/tuios/internal/rawio"
)

// A pipe is served by the runtime's poller: read and written with raw
// calls, it still waits (and ends) as an *os.File does.
func Example() {
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	go func() {
		rawio.NewWriter(w).Write([]byte("a key\n"))
		w.Close()
	}()
	b, _ := io.ReadAll(rawio.NewReader(r))
	fmt.Printf("%s", b)
	// Output: a key
}
