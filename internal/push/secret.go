package push

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tuios/tuios/internal/config"
)

// maxSecretFile bounds a token file: a token is a line, not a document.
const maxSecretFile = 16 << 10

// secretReader reads secrets from their sources on each send.
type secretReader struct {
	getenv func(string) string
	// where names getenv's environment in errors: "the daemon's
	// environment", "this shell's environment".
	where string
	uid   int
}

// read returns the secret key names (notify.ntfy.token, say) from the
// first source set; "" with no error when none is. An error names the
// key, the variable or the file, never the secret.
func (r secretReader) read(key string, s config.SecretSource) (string, error) {
	var v string
	switch {
	case s.Value != "":
		v = strings.TrimSpace(s.Value)
	case s.Env != "":
		v = strings.TrimSpace(r.getenv(s.Env))
		if v == "" {
			return "", fmt.Errorf("%s_env names %s, which is not set in %s", key, clean(s.Env, 64), r.where)
		}
	case s.File != "":
		b, err := r.readFile(s.File)
		if err != nil {
			return "", fmt.Errorf("%s_file: %v", key, err)
		}
		v = strings.TrimSpace(string(b))
		if v == "" {
			return "", fmt.Errorf("%s_file %s is empty", key, clean(s.File, 256))
		}
	default:
		return "", nil
	}
	if strings.IndexFunc(v, func(c rune) bool { return c < 0x20 || c == 0x7f }) >= 0 {
		return "", fmt.Errorf("%s holds a line break or a control character (a token is one line)", key)
	}
	return v, nil
}

// readFile reads a secret file: a regular file of this user's, mode 0600
// or 0400 (anyone else who can read it can read the secret). The checks
// are made on the open file, so it cannot be swapped between check and
// read.
func (r secretReader) readFile(name string) ([]byte, error) {
	if strings.HasPrefix(name, "~/") {
		if home := r.getenv("HOME"); filepath.IsAbs(home) {
			name = filepath.Join(home, name[2:])
		}
	}
	shown := clean(name, 256)
	if !filepath.IsAbs(name) {
		return nil, fmt.Errorf("%s is not an absolute path (or ~/...)", shown)
	}
	f, err := os.Open(name)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %v", shown, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", shown, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", shown)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 && perm != 0o400 {
		return nil, fmt.Errorf("%s has mode %04o: a secret file must be 0600 or 0400 (chmod 600 %s)", shown, perm, shown)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != r.uid {
		return nil, fmt.Errorf("%s belongs to another user", shown)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", shown, err)
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("%s is over %d KiB: a token is one line", shown, maxSecretFile>>10)
	}
	return b, nil
}

// masker hides secrets in text that is about to be shown: a server's
// answer, an error of the network stack.
type masker []string

func (m masker) mask(s string) string {
	for _, sec := range m {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[secret]")
		}
	}
	return s
}

// clean makes text from outside one printable line of at most n bytes.
func clean(s string, n int) string {
	var b strings.Builder
	space := false
	for _, c := range s {
		switch {
		case c == '\uFFFD' || c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 || c == '\u2028' || c == '\u2029':
			if c == '\n' || c == '\t' || c == '\r' {
				if !space && b.Len() > 0 {
					b.WriteByte(' ')
					space = true
				}
			}
			continue
		case c == ' ':
			if space || b.Len() == 0 {
				continue
			}
			space = true
		default:
			space = false
		}
		if b.Len()+len(string(c)) > n {
			b.WriteString("…")
			break
		}
		b.WriteRune(c)
	}
	return strings.TrimRight(b.String(), " ")
}
