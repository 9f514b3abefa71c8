package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// flagDefault is the " (default …)" a flag's help line ends with, or ""
// when there is nothing to say: the usage already names its default (the
// real one, where the flag's zero value means "use the daemon's
// default"), or the default is the unset zero value (0, "", [], false),
// which would only mislead (a --workspace whose range is 1 to 9 showing
// 0). Numbers and durations print bare, strings quoted.
func flagDefault(f *pflag.Flag) string {
	_, usage := pflag.UnquoteUsage(f)
	if strings.Contains(strings.ToLower(usage), "default") {
		return ""
	}
	switch f.DefValue {
	case "", "0", "0s", "[]", "false", "<nil>":
		return ""
	}
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "duration", "count":
		return " (default " + f.DefValue + ")"
	}
	return " (default " + strconv.Quote(f.DefValue) + ")"
}
