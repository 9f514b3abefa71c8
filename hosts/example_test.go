package hosts_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/tuios/tuios/hosts"
)

// A row of the hosts table is checked before anything dials it, and
// Resolve says where a dial would go and what it would read (the
// ~/.ssh/config under Dialer.Home), without touching the network: what
// `tuios hosts test` prints.
func Example() {
	home, err := os.MkdirTemp("", "hosts-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	os.Mkdir(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte("Host gpu\n  HostName gpu.lan\n  User me\n  Port 2222\n"), 0o600)

	bad := hosts.Host{Name: "gpu", Addr: "gpu", SSHOptions: []string{"-o ProxyCommand=nc %h %p"}}
	var herr *hosts.Error
	if err := bad.Check(); errors.As(err, &herr) {
		fmt.Println("refused:", herr.Code())
	}

	row := hosts.Host{Name: "gpu", Addr: "gpu", Command: "/opt/tuios/bin/tuios"}
	if err := row.Check(); err != nil {
		log.Fatal(err)
	}
	d := &hosts.Dialer{Home: home, Getenv: func(string) string { return "" }}
	r, err := d.Resolve(row)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s@%s port %d\n", r.User, r.HostName, r.Port)
	fmt.Println(r.RemoteCommand)
	// Output:
	// refused: invalid_params
	// me@gpu.lan port 2222
	// /opt/tuios/bin/tuios stdio-proxy
}

// A link carries the control protocol to the far daemon: Call waits for
// one answer on the link's first channel; a long wait gets a channel of
// its own with Open. Done is closed when the link ends, and Err says why.
func ExampleDialer_Dial() {
	d := &hosts.Dialer{Client: "my-tool", Version: "0.1"}
	link, err := d.Dial(context.Background(), hosts.Host{Name: "gpu", Addr: "me@gpu.lan"})
	if err != nil {
		var herr *hosts.Error
		if errors.As(err, &herr) {
			fmt.Println(herr.Code(), herr.Hint()) // host_key_unknown, no_tuios, ...
		}
		return
	}
	defer link.Close()
	var agents struct {
		Agents []struct {
			Window string `json:"window_id"`
			State  string `json:"state"`
		} `json:"agents"`
	}
	if err := link.Call("list-agents", map[string]any{}, &agents); err != nil {
		log.Fatal(err)
	}
	for _, a := range agents.Agents {
		fmt.Println(a.Window, a.State)
	}
}
