package worktree

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Git says how git runs: the binary and the environment. The zero value
// runs "git" from PATH with the process's environment.
type Git struct {
	// Bin is the git binary; empty is "git".
	Bin string
	// Env is the environment git runs with; nil is os.Environ(). The
	// variables that would point git at another repository (GIT_DIR,
	// GIT_WORK_TREE, GIT_INDEX_FILE and the object directories) are
	// always removed.
	Env []string
	// Timeout bounds one git call; zero is DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout bounds one git call: a checkout of a large tree takes a
// while, a git that hangs must not hold a verb for ever.
const DefaultTimeout = 2 * time.Minute

// maxOutput bounds what one git call may print before it is cut off.
const maxOutput = 64 << 20

// run runs git in dir and returns what it printed on stdout. A failure is
// a *gitError carrying git's own words.
func (g Git) run(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	return g.runEnv(ctx, dir, nil, stdin, args...)
}

func (g Git) runEnv(ctx context.Context, dir string, extra []string, stdin []byte, args ...string) ([]byte, error) {
	bin := g.Bin
	if bin == "" {
		bin = "git"
	}
	to := g.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, to)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-c", "core.quotePath=false", "--no-pager"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(g.env(), extra...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr limited
	out.max, stderr.max = maxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return out.Bytes(), &gitError{args: args, msg: "timed out or was cancelled", ctx: true}
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = strings.TrimSpace(out.String())
			}
			if msg == "" {
				msg = err.Error()
			}
			return out.Bytes(), &gitError{args: args, msg: msg, code: ee.ExitCode()}
		}
		return out.Bytes(), &gitError{args: args, msg: err.Error(), noGit: true}
	}
	if out.cut {
		return out.Bytes(), &gitError{args: args, msg: "printed more than the limit"}
	}
	return out.Bytes(), nil
}

func (g Git) env() []string {
	env := g.Env
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
			"GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_PREFIX":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_EDITOR=true", "GIT_MERGE_AUTOEDIT=no")
}

// gitError is a git call that failed, with what git said.
type gitError struct {
	args  []string
	msg   string
	code  int
	ctx   bool // the context ended
	noGit bool // git could not be run at all
}

func (e *gitError) Error() string {
	verb := ""
	if len(e.args) > 0 {
		verb = e.args[0]
		if len(e.args) > 1 && !strings.HasPrefix(e.args[1], "-") && (verb == "worktree" || verb == "stash") {
			verb += " " + e.args[1]
		}
	}
	return "git " + verb + ": " + clip(oneLine(e.msg), 400)
}

// failed wraps a git failure as git_failed.
func failed(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ge *gitError
	if errors.As(err, &ge) && ge.noGit {
		return errf(CodeGitFailed, "install git, or put it on the daemon's PATH", "", "git cannot run here: %s", clip(ge.msg, 200))
	}
	return errf(CodeGitFailed, "check that git works in this repository", "", "%s", err.Error())
}

// exitCode is a failed git call's exit status (0 when it did not exit).
func exitCode(err error) int {
	var ge *gitError
	if errors.As(err, &ge) {
		return ge.code
	}
	return 0
}

// limited keeps at most max bytes.
type limited struct {
	bytes.Buffer
	max int
	cut bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.Len(); len(p) > room {
		l.cut = true
		if room > 0 {
			l.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return l.Buffer.Write(p)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
