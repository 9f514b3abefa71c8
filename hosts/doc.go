// Package hosts is tuios's view of other machines: the hosts table
// ([hosts.NAME] rows, checked against a safe subset of ssh's options, see
// ParseOptions), HOST:SESSION:WINDOW addressing, and ssh links made with
// golang.org/x/crypto/ssh that run `tuios stdio-proxy` on the far machine
// and speak the control protocol (JSON lines) to its daemon.
//
// A dial reads what ssh would: ~/.ssh/config (HostName, User, Port,
// HostKeyAlias, IdentityFile, ProxyJump, UserKnownHostsFile,
// GlobalKnownHostsFile; this package's own small reader, which follows
// Include as ssh does and refuses a file another user could write),
// the known_hosts files those name (ssh's defaults otherwise), the
// ssh-agent at SSH_AUTH_SOCK and identity files without a passphrase. It
// never prompts and never accepts a host key: an unknown or changed key is
// an *Error with ReasonHostKeyUnknown or ReasonHostKeyChanged, and the
// person accepts a key once by hand with ssh. Nothing a dial does runs a
// command on this machine: ProxyCommand, LocalCommand and the like are
// refused wherever they are written (ssh_options or ~/.ssh/config).
//
// Jump hosts (-J / ProxyJump, in ssh_options or ~/.ssh/config) are host
// names or bracketed IPv6 literals only: [user@]host[:port] or
// [user@][v6addr][:port], comma-separated, at most MaxJumps in a
// route; a command, a URL or a value starting with '-' is refused with the
// reason, and "none" switches a ~/.ssh/config ProxyJump off as in ssh.
// Each jump host is resolved like a host (its own Host block), its key
// checked against known_hosts (unknown or changed is refused as for the
// host), and logged in to with the same agent and identity files; the
// next machine is reached through a direct-tcpip channel of the one
// before, with no second ssh process. A failure names the jump host
// (Error.Hop). The link's Done, keepalives and Close cover the whole
// route: closing the link closes every jump host's connection.
//
// On the far side the link runs the host's command followed by
// " stdio-proxy", or, with none, a sh script that looks on PATH and in
// SearchPaths (exit 127 = no_tuios; stdio-proxy exits 3 = no_daemon). The
// first request is link-peer {peer}, then hello; a daemon that
// predates link-peer answers unknown_verb and the link goes on (noted in
// Resolved.Notes). A protocol outside the far range is ReasonIncompatible.
//
// A Link is one ssh connection per host. Its first channel said link-peer
// and hello and carries Call; Open starts one more channel on the same
// connection (the far sshd runs one more stdio-proxy, link-peer said
// first), so many callers share one ssh link without waiting for each
// other. The far sshd caps channels per connection (MaxSessions, 10 by
// default): past it Open fails with ReasonNoRoom. Keepalives
// (keepalive@openssh.com every ServerAliveInterval, DefaultAliveInterval
// when ssh_options name none; ServerAliveCountMax unanswered in a row, 3
// by default, end the link) notice a peer that stopped answering while
// TCP still looks open. Done is closed when the link ends: the ssh
// connection closed, the keepalives went unanswered, or the first
// channel's far stdio-proxy exited (the far daemon stopped: its socket
// closed); Err says which. Redialling, link states over time and what a
// daemon does with links are the daemon's (internal/daemon/links.go).
//
// Not done yet (said where it matters): Match blocks in ~/.ssh/config
// (skipped and noted, with what they include), /etc/ssh/ssh_config, the
// login-shell lookup of tuios, agent forwarding, and a ServerAliveInterval
// of 0 meaning "no keepalives" (0 reads as the default).
package hosts
