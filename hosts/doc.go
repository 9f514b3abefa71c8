// Package hosts is tuios's view of other machines: the hosts table
// ([hosts.NAME] rows, checked against the safe ssh option subset of spec
// §14.1), HOST:SESSION:WINDOW addressing (§1.1), and ssh links made with
// golang.org/x/crypto/ssh that run `tuios stdio-proxy` on the far machine
// and speak the control protocol (JSON lines) to its daemon.
//
// A dial reads what ssh would: ~/.ssh/config (HostName, User, Port,
// IdentityFile; this package's own small reader), known_hosts, the
// ssh-agent at SSH_AUTH_SOCK and identity files without a passphrase. It
// never prompts and never accepts a host key: an unknown or changed key is
// an *Error with ReasonHostKeyUnknown or ReasonHostKeyChanged, and the
// person accepts a key once by hand with ssh. Nothing a dial does runs a
// command on this machine: ProxyCommand, LocalCommand and the like are
// refused wherever they are written (ssh_options or ~/.ssh/config).
//
// On the far side the link runs the host's command followed by
// " stdio-proxy", or, with none, a sh script that looks on PATH and in
// SearchPaths (exit 127 = no_tuios; stdio-proxy exits 3 = no_daemon). The
// first request is link-peer {peer} (§14.5), then hello; a daemon that
// predates link-peer answers unknown_verb and the link goes on (noted in
// Resolved.Notes). A protocol outside the far range is ReasonIncompatible.
//
// Not done yet (said where it matters): ProxyJump (refused with a reason),
// Match and Include in ~/.ssh/config (skipped and noted), the login-shell
// lookup of tuios, ServerAlive keepalives (parsed, not sent), agent
// forwarding, and everything a daemon does with links (redial with
// backoff, link states over time, host-qualified verbs, mail).
package hosts
