// Command tuios is the reference tuios binary: daemon, CLI and attach
// client. All of it lives in internal/cli and the packages below it.
package main

import (
	"os"
	"path/filepath"

	"github.com/tuios/tuios/internal/cli"
)

func main() {
	// Run through a link named herdr (HERDR_BIN_PATH), tuios speaks
	// herdr's command line to its herdr socket.
	if filepath.Base(os.Args[0]) == "herdr" {
		os.Exit(cli.HerdrMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
