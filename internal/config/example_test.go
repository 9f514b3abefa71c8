package config_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/config"
)

func ExampleParse() {
	f, err := config.Parse([]byte("[daemon]\nrespond_from_shell = true\n[keybindings]\nprefix = \"ctrl+a\"\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Daemon.RespondFromShell, f.AgentsEnabled(), f.Bindings("")["prefix"])
	// Output: true true ctrl+a
}
