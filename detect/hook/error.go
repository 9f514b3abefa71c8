package hook

// Code is a stable error code.
type Code string

// Error codes.
const (
	CodeUnknownHarness Code = "unknown_harness" // no hook map for this harness id
	CodeBadPayload     Code = "bad_payload"     // the payload is not what the harness sends
	CodeTooLarge       Code = "too_large"       // the payload is over MaxPayload
)

// Error is a payload or harness the package cannot read.
type Error struct {
	code    Code
	Harness string
	Detail  string
}

func (e *Error) Error() string {
	switch e.code {
	case CodeUnknownHarness:
		return "hook: no hook map for harness " + quote(e.Harness)
	case CodeTooLarge:
		return "hook: the payload is too large"
	}
	return "hook: " + e.Harness + " payload: " + e.Detail
}

// Code returns the error's stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next.
func (e *Error) Hint() string {
	switch e.code {
	case CodeUnknownHarness:
		return "name one of the harnesses Harnesses lists"
	case CodeTooLarge:
		return "a hook payload is at most 1 MiB"
	}
	return "decode the payload exactly as the harness handed it to its hook (standard input, or the last argument)"
}
