package jsonrpc_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

func ExampleConn() {
	agentOutput := strings.NewReader(
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"}}` + "\n" +
			"a stray log line\n")
	c := jsonrpc.New(agentOutput, io.Discard, jsonrpc.Options{
		OnNotify: func(m jsonrpc.Message) { fmt.Println("notification:", m.Method) },
		OnNoise:  func(line []byte, err error) { fmt.Printf("skipped: %q\n", line) },
	})
	fmt.Println(c.Run())
	// Output:
	// notification: session/update
	// skipped: "a stray log line"
	// EOF
}
