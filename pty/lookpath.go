package pty

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// lookPath resolves the command the way a shell would, but in the PATH of
// the child's environment. Relative PATH entries are skipped.
func lookPath(file string, env []string, dir string) (string, error) {
	if strings.Contains(file, "/") {
		p := file
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if err := checkExecutable(p); err != nil {
			return "", err
		}
		if !filepath.IsAbs(p) {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
		}
		return p, nil
	}
	pathList, ok := envValue(env, "PATH")
	if !ok {
		pathList = os.Getenv("PATH")
	}
	var denied *Error
	for _, d := range filepath.SplitList(pathList) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, file)
		err := checkExecutable(p)
		if err == nil {
			return p, nil
		}
		var pe *Error
		if denied == nil && errors.As(err, &pe) && pe.code == CodePermissionDenied {
			pe.Path = file
			denied = pe
		}
	}
	if denied != nil {
		return "", denied
	}
	return "", &Error{code: CodeCommandNotFound, Op: "start", Path: file, Err: errors.New("not found in PATH")}
}

func checkExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		code := CodeCommandNotFound
		if errors.Is(err, fs.ErrPermission) {
			code = CodePermissionDenied
		}
		return &Error{code: code, Op: "start", Path: p, Err: err}
	}
	if st.IsDir() {
		return &Error{code: CodePermissionDenied, Op: "start", Path: p, Err: errors.New("is a directory")}
	}
	if st.Mode().Perm()&0o111 == 0 {
		return &Error{code: CodePermissionDenied, Op: "start", Path: p, Err: errors.New("not executable")}
	}
	return nil
}

// envValue returns the last value of key in env (the one exec uses).
func envValue(env []string, key string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			val, found = kv[len(key)+1:], true
		}
	}
	return val, found
}
