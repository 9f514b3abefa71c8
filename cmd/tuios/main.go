// Command tuios is the reference tuios binary: daemon, CLI and attach
// client. All of it lives in internal/cli and the packages below it.
package main

import (
	"os"

	"github.com/tuios/tuios/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
