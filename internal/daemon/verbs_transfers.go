package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The verbs of tuios cp and tuios transfers (transfers.go runs the
// copies). The files grant lets a pane copy; without admin it copies only
// inside its folder (copyFolder) and sees only the copies it started.
// Copies run on this machine only: an end on a linked host is refused
// not_supported in this version.

const (
	codeOutsideFolder    = "outside_folder"
	codeNotSupported     = "not_supported"
	codeTransferNotFound = "transfer_not_found"
	codeTransfersFull    = "transfers_full"
)

// needFiles is the files grant in a declaration.
const needFiles = access(grant.Files) << grantShift

// copies: a copy on this machine and the list of copies; never over a
// link (a far machine copies with its own daemon).
const copies = whoGranted | needFiles | access(capLocal)

func (s *Server) transferVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.CopyParams) (any, *proto.Error) {
		return s.startCopy(cn, p)
	})
	add("copy", copies, "Start copying a file (or with recursive a folder) on this machine as a transfer, and return it at once (wait-transfers waits for it). A pane without admin copies only inside its own folder: its worktree, else the folder it started in", "transfer",
		`{"verb":"copy","params":{"src":"/src/api/report.json","dst":"/src/api/out/"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.NoParams) (any, *proto.Error) {
		mine, err := s.transferViewer(cn)
		if err != nil {
			return nil, err
		}
		return proto.TransferList{Type: "transfer_list", Transfers: s.xfers.visible(mine), MaxKept: maxTransfersKept}, nil
	})
	add("list-transfers", copies, "List the copies, oldest first: the person and an admin pane see every one, another pane only those it started", "transfer_list",
		`{"verb":"list-transfers"}`, p, h)

	for _, action := range []string{"pause", "resume", "cancel"} {
		p, h = handler(func(cn *conn, p *proto.TransferIDsParams) (any, *proto.Error) {
			mine, err := s.transferCall(cn, p.IDs, true)
			if err != nil {
				return nil, err
			}
			out, missing := s.xfers.control(p.IDs, mine, action)
			if missing != "" {
				return nil, transferNotFound(missing)
			}
			return proto.TransferList{Type: "transfer_list", Transfers: out}, nil
		})
		what := map[string]string{"pause": "Pause copies (they hold their place)", "resume": "Resume paused copies",
			"cancel": "Cancel copies: the file being copied is removed, files a folder copy finished stay"}[action]
		add(action+"-transfers", copies, what+"; a finished copy is left as it is. None named: every one the caller sees", "transfer_list",
			`{"verb":"`+action+`-transfers","params":{"ids":["t3"]}}`, p, h)
	}

	p, h = handler(func(cn *conn, p *proto.TransferWaitParams) (any, *proto.Error) {
		mine, err := s.transferCall(cn, p.IDs, false)
		if err != nil {
			return nil, err
		}
		timeout := time.Duration(p.Timeout) * time.Millisecond
		if p.Timeout <= 0 {
			timeout = 24 * time.Hour
		}
		ctx, cancel := context.WithTimeout(cn.ctx, timeout) // a client that hangs up ends its wait
		defer cancel()
		out, missing, ended := s.xfers.wait(p.IDs, mine, ctx.Done())
		if missing != "" {
			return nil, transferNotFound(missing)
		}
		if !ended {
			return nil, proto.Errorf(proto.CodeTimeout, "timed out after %dms waiting for the copies to end", timeout.Milliseconds()).
				WithHint(proto.Hint{Command: "tuios transfers", Detail: "they go on; wait again, or cancel them"})
		}
		return proto.TransferList{Type: "transfer_list", Transfers: out}, nil
	})
	add("wait-transfers", copies|holdsConn, "Wait until the copies are done, failed or cancelled, and return them. None named: every one the caller sees", "transfer_list",
		`{"verb":"wait-transfers","params":{"ids":["t3"],"timeout":600000}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.TransferIDsParams) (any, *proto.Error) {
		mine, err := s.transferCall(cn, p.IDs, true)
		if err != nil {
			return nil, err
		}
		n, missing := s.xfers.clear(p.IDs, mine)
		if missing != "" {
			return nil, transferNotFound(missing)
		}
		return proto.TransfersCleared{Type: "transfers_cleared", Cleared: n}, nil
	})
	add("clear-transfers", copies, "Drop finished copies from the list (running and paused ones stay). None named: every finished one the caller sees", "transfers_cleared",
		`{"verb":"clear-transfers"}`, p, h)
}

// readOnlyCopy refuses a change to files or copies on a connection its
// caller made read-only (restrict-connection; tuios mcp --read-only).
// transferCall admits a call on the copies named by ids: whose copies
// the caller sees ("" every one), the ids bounded, and for a call that
// changes them (changes) a connection that is not read-only.
func (s *Server) transferCall(cn *conn, ids []string, changes bool) (string, *proto.Error) {
	mine, err := s.transferViewer(cn)
	if err != nil {
		return "", err
	}
	if err := checkTransferIDs(ids); err != nil {
		return "", err
	}
	if changes {
		if err := readOnlyCopy(cn); err != nil {
			return "", err
		}
	}
	return mine, nil
}

func readOnlyCopy(cn *conn) *proto.Error {
	if r := cn.call.restrict; cn.callKnown && r != nil && r.readOnly {
		return proto.Errorf(proto.CodeForbidden, "%s is refused on this connection: it is read-only", cn.verbName).
			WithHint(proto.Hint{Command: "restrict-connection", Detail: "the connection was restricted by its own caller (tuios mcp does this); a restriction only narrows"})
	}
	return nil
}

func checkTransferIDs(ids []string) *proto.Error {
	for _, id := range ids {
		if len(id) > 32 || id == "" {
			return proto.Errorf(proto.CodeInvalidParams, "%q is not a transfer id", clipText(id, 40)).WithHint(proto.Hint{Param: "ids", Command: "tuios transfers"})
		}
	}
	return nil
}

func transferNotFound(id string) *proto.Error {
	return proto.Errorf(codeTransferNotFound, "no transfer %s", clipText(id, 40)).WithHint(proto.Hint{Command: "tuios transfers", Detail: "list the copies you may see"})
}

// transferViewer is whose copies the caller sees: "" for all (the person,
// an admin pane), else the caller's pane id.
func (s *Server) transferViewer(cn *conn) (string, *proto.Error) {
	c := cn.call
	if !cn.callKnown {
		c = s.callerOf(cn)
	}
	switch {
	case !c.inside || c.own || c.grants.Has(grant.Admin):
		return "", nil
	case c.pane == nil:
		return "", proto.Errorf(proto.CodeForbidden, "copies are refused: this caller runs inside TUIOS in no pane it can name, so it has no folder").
			WithHint(proto.Hint{Command: "tuios pane-grants", Detail: "call from a pane's own processes, or from a terminal outside TUIOS"})
	}
	return c.pane.ID, nil
}

func (s *Server) startCopy(cn *conn, p *proto.CopyParams) (any, *proto.Error) {
	mine, perr := s.transferViewer(cn)
	if perr != nil {
		return nil, perr
	}
	if err := readOnlyCopy(cn); err != nil {
		return nil, err
	}
	for _, end := range []struct{ param, v string }{{"src", p.Src}, {"dst", p.Dst}} {
		if host, _ := hosts.SplitCopyEnd(end.v); host != "" {
			return nil, proto.Errorf(codeNotSupported, "%s names host %q: this version copies only on this machine", end.param, clipText(host, 64)).
				WithHint(proto.Hint{Param: end.param, Command: "tuios stash put -s " + clipText(host, 64) + ":SESSION FILE",
					Detail: "send a file to a linked host through its session stash (8 MB at most), or use scp"})
		}
	}
	_, src := hosts.SplitCopyEnd(p.Src)
	_, dst := hosts.SplitCopyEnd(p.Dst)
	for _, end := range []struct{ param, v string }{{"src", src}, {"dst", dst}} {
		if !filepath.IsAbs(end.v) || strings.ContainsRune(end.v, 0) {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%s must be an absolute path on this machine, not %q", end.param, clipText(end.v, 256)).
				WithHint(proto.Hint{Param: end.param, Detail: "tuios cp makes a relative path absolute from where you run it"})
		}
	}
	// A pane held to its folder learns nothing about a path outside it
	// (not even whether it exists): the folder is checked first.
	folder := ""
	if mine != "" {
		if folder, perr = s.copyFolder(cn.call.pane); perr != nil {
			return nil, perr
		}
	}
	outside := func(param, path string) *proto.Error {
		if folder == "" || inside(path, folder) {
			return nil
		}
		return proto.Errorf(codeOutsideFolder, "%s %s is outside this pane's folder %s: a pane with files and without admin copies only inside its folder (its worktree, else the folder it started in)",
			param, clipText(path, 256), folder).
			WithHint(proto.Hint{Param: param, Command: "tuios pane-grants", Detail: "copy inside " + folder + ", or ask the person (admin copies anywhere)"})
	}
	realSrc, err := filepath.EvalSymlinks(filepath.Clean(src))
	if err != nil {
		if e := outside("src", filepath.Clean(src)); e != nil {
			return nil, e
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "cannot read %s: %v", clipText(src, 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "src", Detail: "name a file or folder that exists"})
	}
	if e := outside("src", realSrc); e != nil {
		return nil, e
	}
	fi, err := os.Stat(realSrc)
	if err != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "cannot read %s: %v", clipText(src, 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "src"})
	}
	if fi.IsDir() && !p.Recursive {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is a folder", clipText(src, 256)).WithHint(proto.Hint{Param: "recursive", Command: "tuios cp -r SRC DST", Detail: "copy a folder with -r"})
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is not a regular file", clipText(src, 256)).WithHint(proto.Hint{Param: "src"})
	}
	realDst, perr := resolveDst(dst, realSrc)
	if perr != nil {
		if e := outside("dst", filepath.Clean(dst)); e != nil {
			return nil, e
		}
		return nil, perr
	}
	if e := outside("dst", realDst); e != nil {
		return nil, e
	}
	if realDst == realSrc || fi.IsDir() && inside(realDst, realSrc) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s cannot be copied onto or into itself (%s)", clipText(src, 256), clipText(realDst, 256)).WithHint(proto.Hint{Param: "dst"})
	}
	plan := copyPlan{src: realSrc, dst: realDst, recursive: p.Recursive, bwlimit: p.BWLimit, startedBy: "person"}
	if c := cn.call; c.inside && !c.own {
		// Inside TUIOS is never the person: a process in no pane TUIOS
		// can name (an admin one under mode open) is "unplaced".
		plan.startedBy = "unplaced"
		if c.pane != nil {
			plan.startedBy = c.pane.ID
		}
	}
	plan.within = folder
	info, err := s.xfers.start(plan, s.done)
	if errors.Is(err, errTransfersFull) {
		return nil, proto.Errorf(codeTransfersFull, "%d copies are kept and none has finished", maxTransfersKept).
			WithHint(proto.Hint{Command: "tuios transfers", Detail: "wait for one to end, or cancel one"})
	}
	return proto.TransferStarted{Type: "transfer", Transfer: info}, nil
}

// resolveDst is where the copy lands, its symlinks resolved: inside an
// existing folder under the source's name, else the path itself (whose
// folder must exist).
func resolveDst(dst, realSrc string) (string, *proto.Error) {
	clean := filepath.Clean(dst)
	if real, err := filepath.EvalSymlinks(clean); err == nil {
		if fi, err := os.Stat(real); err == nil && fi.IsDir() {
			return filepath.Join(real, filepath.Base(realSrc)), nil
		}
		if strings.HasSuffix(dst, "/") {
			return "", proto.Errorf(proto.CodeInvalidParams, "%s is not a folder", clipText(dst, 256)).WithHint(proto.Hint{Param: "dst"})
		}
		// An existing file is replaced; a symlink is replaced itself,
		// not written through.
		parent, err := filepath.EvalSymlinks(filepath.Dir(clean))
		if err != nil {
			return "", proto.Errorf(proto.CodeInvalidParams, "cannot write in %s: %v", clipText(filepath.Dir(clean), 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "dst"})
		}
		return filepath.Join(parent, filepath.Base(clean)), nil
	}
	if strings.HasSuffix(dst, "/") {
		return "", proto.Errorf(proto.CodeInvalidParams, "folder %s does not exist", clipText(dst, 256)).WithHint(proto.Hint{Param: "dst", Detail: "make it first, or name the file to write"})
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(clean))
	if err != nil {
		return "", proto.Errorf(proto.CodeInvalidParams, "cannot write in %s: %v", clipText(filepath.Dir(clean), 256), unwrapPathErr(err)).
			WithHint(proto.Hint{Param: "dst", Detail: "the folder the copy goes in must exist"})
	}
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return "", proto.Errorf(proto.CodeInvalidParams, "%s is not a folder", clipText(parent, 256)).WithHint(proto.Hint{Param: "dst"})
	}
	return filepath.Join(parent, filepath.Base(clean)), nil
}

// copyFolder is the folder a pane without admin copies in: the worktree
// tuios made for its session, else the folder it was started in, else its
// shell's folder as the kernel has it. Never what the pane reports (OSC 7):
// a pane says what it likes there.
func (s *Server) copyFolder(w *Window) (string, *proto.Error) {
	s.mu.Lock()
	session, cwd := w.session.Name, w.cwd
	s.mu.Unlock()
	folder := ""
	if rec, ok := s.wts.bySession(session); ok && rec.Worktree != "" {
		folder = rec.Worktree
	} else if cwd != "" {
		folder = cwd
	} else if w.proc != nil {
		folder = procCwd(w.proc.Pid())
	}
	if folder == "" {
		return "", proto.Errorf(codeOutsideFolder, "this pane has no folder tuios can read, so it may copy nowhere").
			WithHint(proto.Hint{Command: "tuios pane-grants", Detail: "ask the person (admin copies anywhere)"})
	}
	if real, err := filepath.EvalSymlinks(folder); err == nil {
		folder = real
	}
	return folder, nil
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return fmt.Errorf("%w", err)
}
