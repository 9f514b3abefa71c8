package integration_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tuios/tuios/internal/integration"
)

// Install wires Claude Code's hooks into its settings file in a home
// directory (here a temporary one), keeping the person's settings, and
// StatusOf then says it is installed.
func ExampleInstall() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	env := integration.Env{Home: home, Getenv: func(string) string { return "" }}
	claude, _ := integration.Lookup("claude-code")

	fmt.Println("before:", integration.StatusOf(claude, env).State)

	// Claude Code has run once: its directory and settings are there.
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	settings := filepath.Join(home, ".claude", "settings.json")
	os.WriteFile(settings, []byte("{\n  // my model\n  \"model\": \"opus\"\n}\n"), 0o600)

	res, err := integration.Install(claude, integration.Options{Env: env, Program: "/usr/local/bin/tuios"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("changed:", res.Changed, "backup:", filepath.Base(res.Backup))
	st := integration.StatusOf(claude, env)
	fmt.Printf("after: %s (%s)\n", st.State, st.Detail)

	text, _ := os.ReadFile(settings)
	lines := strings.Split(string(text), "\n")
	fmt.Println(strings.Join(lines[:15], "\n"))

	res, _ = integration.Install(claude, integration.Options{Env: env, Program: "/usr/local/bin/tuios"})
	fmt.Println("again, changed:", res.Changed)
	// Output:
	// before: not installed
	// changed: true backup: settings.json.tuios.bak
	// after: installed (its hooks run /usr/local/bin/tuios)
	// {
	//   // my model
	//   "model": "opus",
	//   "hooks": {
	//     "SessionStart": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/usr/local/bin/tuios agent-hook claude-code --integration 4",
	//             "timeout": 10
	//           }
	//         ]
	//       }
	//     ],
	// again, changed: false
}
