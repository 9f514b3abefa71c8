// Package push sends the person's Inbox to their phone: a notification
// through ntfy, Pushover or a webhook when an item that waits for them
// opens, whether or not a client is attached.
//
// It owns the providers' wire formats (ntfy's publish API, Pushover's
// messages API, the webhook's JSON body), the HTTP client they share,
// reading their secrets, and the rules that decide whether and when an
// item is sent:
//
//   - One notification per item: an item's updates (a new line, the same
//     prompt again) send nothing; an item that closes before it is sent
//     sends nothing either.
//   - An item is sent once it has been open for Settle (2 s), so a prompt
//     that flickers sends nothing.
//   - Held while the person typed in an attached client within
//     quiet_active_seconds (they are at the keyboard): sent once that
//     much time has passed since their last key, if the item is still
//     open.
//   - At most one notification per pane and kind per cooldown_seconds,
//     and at most max_per_hour: an item over either waits for its turn
//     (and is dropped if it closes first), so nothing that waits for the
//     person is lost, only spaced.
//   - Items mirrored from linked hosts send nothing here (that machine's
//     daemon sends its own).
//
// Every time rule reads an injectable clock. Sending never blocks the
// caller: each provider has its own bounded queue and sends from a
// goroutine that runs only while it has work, so a slow provider delays
// no other, and no lock of this package is held across an HTTP call. A
// send takes at most 10 s, redirects are followed at most 3 times, only
// with 307 or 308 (a POST that keeps its body), never to another host,
// and to plain http only with allow_http_redirects. Proxies come from
// the environment (HTTPS_PROXY, NO_PROXY) and certificates from the
// system's store (SSL_CERT_FILE and SSL_CERT_DIR included).
//
// Secrets (tokens, Pushover's user key, ntfy's topic, which is the whole
// address of a topic) are read again on each send from the first source
// set: the value in the file, an environment variable of this process,
// or a file of mode 0600 or 0400 owned by this user. No log line, error
// or result of this package carries one: a provider is shown by its host
// alone, and a server's words are masked for every secret before they
// are repeated.
//
// It does not own the [notify] schema (package internal/config), nor
// deciding what may change where pushes go (the daemon applies [notify]
// at its start and on tuios config apply), nor learning that the person
// typed (the daemon tells it).
package push
