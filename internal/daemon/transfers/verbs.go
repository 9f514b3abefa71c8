package transfers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/procstat"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The verbs of tuios cp and tuios transfers. The files grant lets a pane
// copy; without admin it copies only inside its folder (folderOf) and
// sees only the copies it started. Copies run on this machine only: an
// end on a linked host is refused not_supported in this version.

// The copies' error codes.
const (
	CodeOutsideFolder    = "outside_folder"
	CodeNotSupported     = "not_supported"
	CodeTransferNotFound = "transfer_not_found"
	CodeTransfersFull    = "transfers_full"
)

type noParams struct{}

func (f *Feature) addVerbs(h core.Host) {
	params, run := core.Handle(f.startCopy)
	h.AddVerb(core.Verb{Name: "copy", Class: core.Copies, Returns: "transfer", Params: params, Run: run,
		Desc:    "Start copying a file (or with recursive a folder) on this machine as a transfer, and return it at once (wait-transfers waits for it). A pane without admin copies only inside its own folder: its worktree, else the folder it started in",
		Example: `{"verb":"copy","params":{"src":"/src/api/report.json","dst":"/src/api/out/"}}`})

	params, run = core.Handle(func(c core.Call, _ *noParams) (any, *proto.Error) {
		mine, _, err := f.viewer(c)
		if err != nil {
			return nil, err
		}
		return proto.TransferList{Type: "transfer_list", Transfers: f.list.visible(mine), MaxKept: MaxKept}, nil
	})
	h.AddVerb(core.Verb{Name: "list-transfers", Class: core.Copies, Returns: "transfer_list", Params: params, Run: run,
		Desc:    "List the copies, oldest first: the person and an admin pane see every one, another pane only those it started",
		Example: `{"verb":"list-transfers"}`})

	for _, action := range []string{"pause", "resume", "cancel"} {
		params, run = core.Handle(func(c core.Call, p *proto.TransferIDsParams) (any, *proto.Error) {
			mine, err := f.admit(c, p.IDs, true)
			if err != nil {
				return nil, err
			}
			out, missing := f.list.control(p.IDs, mine, action)
			if missing != "" {
				return nil, notFound(missing)
			}
			return proto.TransferList{Type: "transfer_list", Transfers: out}, nil
		})
		what := map[string]string{"pause": "Pause copies (they hold their place)", "resume": "Resume paused copies",
			"cancel": "Cancel copies: the file being copied is removed, files a folder copy finished stay"}[action]
		h.AddVerb(core.Verb{Name: action + "-transfers", Class: core.Copies, Returns: "transfer_list", Params: params, Run: run,
			Desc:    what + "; a finished copy is left as it is. None named: every one the caller sees",
			Example: `{"verb":"` + action + `-transfers","params":{"ids":["t3"]}}`})
	}

	params, run = core.Handle(f.waitCopies)
	h.AddVerb(core.Verb{Name: "wait-transfers", Class: core.Copies, Holds: true, Returns: "transfer_list", Params: params, Run: run,
		Desc:    "Wait until the copies are done, failed or cancelled, and return them. None named: every one the caller sees",
		Example: `{"verb":"wait-transfers","params":{"ids":["t3"],"timeout":600000}}`})

	params, run = core.Handle(func(c core.Call, p *proto.TransferIDsParams) (any, *proto.Error) {
		mine, err := f.admit(c, p.IDs, true)
		if err != nil {
			return nil, err
		}
		n, missing := f.list.clear(p.IDs, mine)
		if missing != "" {
			return nil, notFound(missing)
		}
		return proto.TransfersCleared{Type: "transfers_cleared", Cleared: n}, nil
	})
	h.AddVerb(core.Verb{Name: "clear-transfers", Class: core.Copies, Returns: "transfers_cleared", Params: params, Run: run,
		Desc:    "Drop finished copies from the list (running and paused ones stay). None named: every finished one the caller sees",
		Example: `{"verb":"clear-transfers"}`})
}

// waitCopies is wait-transfers: the copies once every one has ended.
func (f *Feature) waitCopies(c core.Call, p *proto.TransferWaitParams) (any, *proto.Error) {
	mine, err := f.admit(c, p.IDs, false)
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(p.Timeout) * time.Millisecond
	if p.Timeout <= 0 {
		timeout = 24 * time.Hour
	}
	ctx, cancel := context.WithTimeout(c.Context(), timeout) // a client that hangs up ends its wait
	defer cancel()
	out, missing, ended := f.list.wait(p.IDs, mine, ctx.Done())
	if missing != "" {
		return nil, notFound(missing)
	}
	if !ended {
		return nil, proto.Errorf(proto.CodeTimeout, "timed out after %dms waiting for the copies to end", timeout.Milliseconds()).
			WithHint(proto.Hint{Command: "tuios transfers", Detail: "they go on; wait again, or cancel them"})
	}
	return proto.TransferList{Type: "transfer_list", Transfers: out}, nil
}

// admit admits a call on the copies named by ids: whose copies the
// caller sees ("" every one), the ids bounded, and for a call that
// changes them (changes) a connection that is not read-only.
func (f *Feature) admit(c core.Call, ids []string, changes bool) (string, *proto.Error) {
	mine, who, err := f.viewer(c)
	if err != nil {
		return "", err
	}
	if err := checkIDs(ids); err != nil {
		return "", err
	}
	if changes {
		if err := readOnly(c, who); err != nil {
			return "", err
		}
	}
	return mine, nil
}

// readOnly refuses a change to files or copies on a connection its
// caller made read-only (restrict-connection; tuios mcp --read-only).
func readOnly(c core.Call, who core.Caller) *proto.Error {
	if who.ReadOnly {
		return proto.Errorf(proto.CodeForbidden, "%s is refused on this connection: it is read-only", c.Verb()).
			WithHint(proto.Hint{Command: "restrict-connection", Detail: "the connection was restricted by its own caller (tuios mcp does this); a restriction only narrows"})
	}
	return nil
}

func checkIDs(ids []string) *proto.Error {
	for _, id := range ids {
		if len(id) > 32 || id == "" {
			return proto.Errorf(proto.CodeInvalidParams, "%q is not a transfer id", core.Clip(id, 40)).WithHint(proto.Hint{Param: "ids", Command: "tuios transfers"})
		}
	}
	return nil
}

func notFound(id string) *proto.Error {
	return proto.Errorf(CodeTransferNotFound, "no transfer %s", core.Clip(id, 40)).WithHint(proto.Hint{Command: "tuios transfers", Detail: "list the copies you may see"})
}

// viewer is whose copies the caller sees: "" for all (the person, an
// admin pane), else the caller's pane id; and the caller as the core
// placed it.
func (f *Feature) viewer(c core.Call) (string, core.Caller, *proto.Error) {
	who := f.h.Caller(c)
	switch {
	case !who.Inside || who.Own || who.Grants.Has(grant.Admin):
		return "", who, nil
	case who.Pane == "":
		return "", who, proto.Errorf(proto.CodeForbidden, "copies are refused: this caller runs inside TUIOS in no pane it can name, so it has no folder").
			WithHint(proto.Hint{Command: "tuios pane-grants", Detail: "call from a pane's own processes, or from a terminal outside TUIOS"})
	}
	return who.Pane, who, nil
}

// startCopy is copy: the ends checked (a pane held to its folder first),
// then the copy started.
func (f *Feature) startCopy(c core.Call, p *proto.CopyParams) (any, *proto.Error) {
	mine, who, perr := f.viewer(c)
	if perr != nil {
		return nil, perr
	}
	if err := readOnly(c, who); err != nil {
		return nil, err
	}
	for _, end := range []struct{ param, v string }{{"src", p.Src}, {"dst", p.Dst}} {
		if host, _ := hosts.SplitCopyEnd(end.v); host != "" {
			return nil, proto.Errorf(CodeNotSupported, "%s names host %q: this version copies only on this machine", end.param, core.Clip(host, 64)).
				WithHint(proto.Hint{Param: end.param, Command: "tuios stash put -s " + core.Clip(host, 64) + ":SESSION FILE",
					Detail: "send a file to a linked host through its session stash (8 MB at most), or use scp"})
		}
	}
	_, src := hosts.SplitCopyEnd(p.Src)
	_, dst := hosts.SplitCopyEnd(p.Dst)
	for _, end := range []struct{ param, v string }{{"src", src}, {"dst", dst}} {
		if !filepath.IsAbs(end.v) || strings.ContainsRune(end.v, 0) {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%s must be an absolute path on this machine, not %q", end.param, core.Clip(end.v, 256)).
				WithHint(proto.Hint{Param: end.param, Detail: "tuios cp makes a relative path absolute from where you run it"})
		}
	}
	// A pane held to its folder learns nothing about a path outside it
	// (not even whether it exists): the folder is checked first.
	folder := ""
	if mine != "" {
		if folder, perr = f.folderOf(who.Pane); perr != nil {
			return nil, perr
		}
	}
	outside := func(param, path string) *proto.Error {
		if folder == "" || inside(path, folder) {
			return nil
		}
		return proto.Errorf(CodeOutsideFolder, "%s %s is outside this pane's folder %s: a pane with files and without admin copies only inside its folder (its worktree, else the folder it started in)",
			param, core.Clip(path, 256), folder).
			WithHint(proto.Hint{Param: param, Command: "tuios pane-grants", Detail: "copy inside " + folder + ", or ask the person (admin copies anywhere)"})
	}
	realSrc, err := filepath.EvalSymlinks(filepath.Clean(src))
	if err != nil {
		if e := outside("src", filepath.Clean(src)); e != nil {
			return nil, e
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "cannot read %s: %v", core.Clip(src, 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "src", Detail: "name a file or folder that exists"})
	}
	if e := outside("src", realSrc); e != nil {
		return nil, e
	}
	fi, err := os.Stat(realSrc)
	if err != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "cannot read %s: %v", core.Clip(src, 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "src"})
	}
	if fi.IsDir() && !p.Recursive {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is a folder", core.Clip(src, 256)).WithHint(proto.Hint{Param: "recursive", Command: "tuios cp -r SRC DST", Detail: "copy a folder with -r"})
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is not a regular file", core.Clip(src, 256)).WithHint(proto.Hint{Param: "src"})
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
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s cannot be copied onto or into itself (%s)", core.Clip(src, 256), core.Clip(realDst, 256)).WithHint(proto.Hint{Param: "dst"})
	}
	pl := plan{src: realSrc, dst: realDst, recursive: p.Recursive, bwlimit: p.BWLimit, startedBy: "person", within: folder}
	if who.Inside && !who.Own {
		// Inside TUIOS is never the person: a process in no pane TUIOS
		// can name (an admin one under mode open) is "unplaced".
		pl.startedBy = "unplaced"
		if who.Pane != "" {
			pl.startedBy = who.Pane
		}
	}
	info, err := f.list.start(pl, f.quit)
	if errors.Is(err, errFull) {
		return nil, proto.Errorf(CodeTransfersFull, "%d copies are kept and none has finished", MaxKept).
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
			return "", proto.Errorf(proto.CodeInvalidParams, "%s is not a folder", core.Clip(dst, 256)).WithHint(proto.Hint{Param: "dst"})
		}
		// An existing file is replaced; a symlink is replaced itself,
		// not written through.
		parent, err := filepath.EvalSymlinks(filepath.Dir(clean))
		if err != nil {
			return "", proto.Errorf(proto.CodeInvalidParams, "cannot write in %s: %v", core.Clip(filepath.Dir(clean), 256), unwrapPathErr(err)).WithHint(proto.Hint{Param: "dst"})
		}
		return filepath.Join(parent, filepath.Base(clean)), nil
	}
	if strings.HasSuffix(dst, "/") {
		return "", proto.Errorf(proto.CodeInvalidParams, "folder %s does not exist", core.Clip(dst, 256)).WithHint(proto.Hint{Param: "dst", Detail: "make it first, or name the file to write"})
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(clean))
	if err != nil {
		return "", proto.Errorf(proto.CodeInvalidParams, "cannot write in %s: %v", core.Clip(filepath.Dir(clean), 256), unwrapPathErr(err)).
			WithHint(proto.Hint{Param: "dst", Detail: "the folder the copy goes in must exist"})
	}
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return "", proto.Errorf(proto.CodeInvalidParams, "%s is not a folder", core.Clip(parent, 256)).WithHint(proto.Hint{Param: "dst"})
	}
	return filepath.Join(parent, filepath.Base(clean)), nil
}

// folderOf is the folder pane (a pane without admin) copies in: the
// worktree tuios made for its session, else the folder it was started
// in, else its shell's folder as the kernel has it. Never what the pane
// reports (OSC 7): a pane says what it likes there.
func (f *Feature) folderOf(pane string) (string, *proto.Error) {
	folder := ""
	if w, ok := f.h.Find(pane); ok {
		started, _, _ := f.h.StartedIn(pane)
		if wt, made := f.h.Worktree(w.Session); made && wt.Worktree != "" {
			folder = wt.Worktree
		} else if started != "" {
			folder = started
		} else if p := f.h.Pane(pane); p != nil {
			folder = procstat.Cwd(p.Pid())
		}
	}
	if folder == "" {
		return "", proto.Errorf(CodeOutsideFolder, "this pane has no folder tuios can read, so it may copy nowhere").
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
