package links

// The error codes of a call to another machine that did not reach it:
// scripts match these words, so a rename breaks them.
const (
	// CodeUnknownHost refuses a host no [hosts.NAME] table names.
	CodeUnknownHost = "unknown_host"
	// CodeHostUnreachable refuses a call to a host whose link is not up
	// (or that did not answer in time).
	CodeHostUnreachable = "host_unreachable"
	// CodeIncompatible refuses a host whose daemon speaks another
	// control protocol.
	CodeIncompatible = "incompatible"
)
