package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

// tuios cp and tuios transfers: copies the daemon runs (its feature
// internal/daemon/transfers), the files grant's (tuios --skill grants).

const cpHelp = "Copies SRC to DST through the daemon, as a transfer that tuios transfers lists, pauses, resumes and cancels. " +
	"Each end is a path on this machine (a relative one is from where you run tuios; local:PATH is this machine too). " +
	"HOST:PATH, an end on a linked host, is refused not_supported in this version: send a file there with tuios stash put -s HOST:SESSION FILE, or scp. " +
	"When DST is an existing folder the copy goes inside it under SRC's name; else DST is the new name, in a folder that exists. " +
	"A file is written beside DST under a temporary name and renamed over it once whole, so a failed or cancelled copy leaves no half file. " +
	"A folder needs -r: its symlinks are copied as links, never followed, and devices, fifos and sockets are left out. " +
	"By default tuios cp waits and prints one line; -d returns at once with the transfer's id. Either way the daemon does the copy: interrupting the wait leaves it going (tuios transfers cancel ID stops it). " +
	"From a pane without admin, the files grant is needed (else forbidden, exit 1), and both ends must be inside the pane's folder: " +
	"the worktree tuios made for its session, else the folder it was started in (symlinks and .. resolved; for a DST that does not exist yet, its folder). " +
	"A copy outside is refused outside_folder with exit code 4, and nothing is copied."

func cpCommands() []Command {
	return []Command{
		{
			Name: "cp", Summary: "copy a file or folder through the daemon, as a transfer", Usage: "[-r] [-d] [--bwlimit RATE] [--timeout MS] [--json] SRC DST",
			Help: cpHelp,
			Example: "tuios cp report.json out/\n" +
				"tuios cp -r fixtures /tmp/fixtures-copy\n" +
				"id=$(tuios cp -d --json big.tar /srv/drop/ | jq -r .transfer.id); tuios transfers wait \"$id\"\n" +
				"tuios cp --bwlimit 10M build.tar /mnt/share/",
			Flags: func(fs *FlagSet) {
				fs.BoolP("recursive", "r", false, "copy a folder and everything in it")
				fs.BoolP("detach", "d", false, "start the copy and return its id at once")
				fs.String("bwlimit", "", "at most this many bytes a second: 512K, 10M, 1G (1024-based), or a number of bytes")
				fs.Int("timeout", 86400000, "milliseconds to wait for the copy to end (it goes on after; at most 86400000)")
				jsonFlag(fs)
			},
			Run: runCp,
		},
		{
			Name: "transfers", Summary: "list the copies tuios cp started", Usage: "[--json]",
			Help: "One row a copy, oldest first: its id, state (running, paused, done, failed, cancelled), bytes so far of the total, who started it (a pane id, or person) and the ends. " +
				"The person and a pane with admin see every copy; a pane with files and without admin sees only the copies it started, and pause, resume, cancel, wait and clear act only on those (another id is transfer_not_found). " +
				"The daemon keeps 256 copies; clear drops finished ones.",
			Example: "tuios transfers\ntuios transfers --json | jq -r '.transfers[] | select(.state==\"running\") | .id'",
			Flags:   func(fs *FlagSet) { jsonFlag(fs) },
			Run:     runTransfers,
		},
		transferActionCommand("pause", "pause copies; they keep their place", "tuios transfers pause t3"),
		transferActionCommand("resume", "resume paused copies", "tuios transfers resume t3"),
		transferActionCommand("cancel", "cancel copies; the file being written is removed", "tuios transfers cancel t3 t4"),
		{
			Name: "transfers wait", Summary: "wait until copies are done, failed or cancelled", Usage: "[ID…] [--timeout MS] [--json]",
			Help:    "Waits for the copies named (none: every copy you see) to end, then prints them. Exits 1 when one failed or was cancelled, or on the timeout (the copies go on).",
			Example: "tuios transfers wait t3\ntuios transfers wait --timeout 600000",
			Flags: func(fs *FlagSet) {
				fs.Int("timeout", 86400000, "milliseconds to wait (at most 86400000)")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				list, err := waitTransfers(ctx.Args, flagInt(ctx, "timeout"))
				if err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					if err := printJSON(ctx.Stdout, list); err != nil {
						return err
					}
				} else {
					for _, t := range list.Transfers {
						fmt.Fprintln(ctx.Stdout, transferLine(t))
					}
				}
				for _, t := range list.Transfers {
					if t.State != "done" {
						return transferEndError(t)
					}
				}
				return nil
			},
		},
		{
			Name: "transfers clear", Summary: "drop finished copies from the list", Usage: "[ID…] [--json]",
			Help:    "Drops the copies named, or with none every finished copy you see; running and paused copies stay.",
			Example: "tuios transfers clear\ntuios transfers clear t3",
			Flags:   func(fs *FlagSet) { jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var res proto.TransfersCleared
				if err := call("clear-transfers", proto.TransferIDsParams{IDs: ctx.Args}, &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				fmt.Fprintf(ctx.Stdout, "%d finished copies cleared.\n", res.Cleared)
				return nil
			},
		},
	}
}

func transferActionCommand(action, summary, example string) Command {
	return Command{
		Name: "transfers " + action, Summary: summary, Usage: "ID… [--json]",
		Help:    "Acts on the copies named (ids from tuios transfers); a finished copy is left as it is.",
		Example: example,
		Flags:   func(fs *FlagSet) { jsonFlag(fs) },
		Run: func(ctx *Context) error {
			if len(ctx.Args) == 0 {
				return usageError(example, "name the copies to %s (ids from tuios transfers)", action)
			}
			var list proto.TransferList
			if err := call(action+"-transfers", proto.TransferIDsParams{IDs: ctx.Args}, &list); err != nil {
				return err
			}
			if flagBool(ctx, "json") {
				return printJSON(ctx.Stdout, list)
			}
			for _, t := range list.Transfers {
				fmt.Fprintln(ctx.Stdout, transferLine(t))
			}
			return nil
		},
	}
}

func runCp(ctx *Context) error {
	if len(ctx.Args) != 2 {
		return usageError("tuios cp report.json out/", "name a source and a destination")
	}
	rate, err := parseRate(str(ctx, "bwlimit"))
	if err != nil {
		return err
	}
	src, dst := copyEnd(ctx.Args[0]), copyEnd(ctx.Args[1])
	p := proto.CopyParams{Src: src, Dst: dst, Recursive: flagBool(ctx, "recursive")}
	p.BWLimit = rate
	var started proto.TransferStarted
	if err := call("copy", p, &started); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Code == "outside_folder" {
			e.Exit = ExitOutsideFolder
		}
		return err
	}
	t := started.Transfer
	if flagBool(ctx, "detach") {
		if flagBool(ctx, "json") {
			return printJSON(ctx.Stdout, proto.TransferStarted{Type: "transfer", Transfer: t})
		}
		fmt.Fprintf(ctx.Stdout, "%s started: %s -> %s\n", t.ID, escapeControls(t.Src), escapeControls(t.Dst))
		return nil
	}
	list, err := waitTransfers([]string{t.ID}, flagInt(ctx, "timeout"))
	if err != nil {
		return err
	}
	if len(list.Transfers) == 1 {
		t = list.Transfers[0]
	}
	if flagBool(ctx, "json") {
		if err := printJSON(ctx.Stdout, proto.TransferStarted{Type: "transfer", Transfer: t}); err != nil {
			return err
		}
	} else if t.State == "done" {
		fmt.Fprintln(ctx.Stdout, transferLine(t))
	}
	if t.State != "done" {
		return transferEndError(t)
	}
	return nil
}

// copyEnd makes a local end absolute from where tuios runs (the daemon
// runs elsewhere), keeping a trailing slash; a host's path is its own.
func copyEnd(end string) string {
	if host, _ := hosts.SplitCopyEnd(end); host != "" {
		return end
	}
	_, path := hosts.SplitCopyEnd(end)
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if strings.HasSuffix(path, "/") {
		abs += "/"
	}
	return abs
}

func waitTransfers(ids []string, timeout int) (proto.TransferList, error) {
	var list proto.TransferList
	if timeout < 1 || timeout > 86400000 {
		return list, usageError("--timeout 600000", "--timeout is 1 to 86400000 milliseconds, not %d", timeout)
	}
	err := call("wait-transfers", proto.TransferWaitParams{IDs: ids, Timeout: timeout}, &list)
	return list, err
}

// transferEndError is a copy that ended without being done.
func transferEndError(t proto.Transfer) *Error {
	if t.State == "cancelled" {
		return &Error{Code: "copy_cancelled", Message: fmt.Sprintf("copy %s was cancelled after %s", t.ID, sizeText(t.Bytes)), Hint: "start it again with tuios cp"}
	}
	return &Error{Code: "copy_failed", Message: fmt.Sprintf("copy %s failed: %s", t.ID, escapeControls(t.Error)), Hint: "tuios transfers lists it; fix the cause and copy again"}
}

// transferLine is one copy in a line.
func transferLine(t proto.Transfer) string {
	what := sizeText(t.Bytes)
	if t.Total > 0 && t.Bytes != t.Total {
		what += " of " + sizeText(t.Total)
	}
	if t.Recursive {
		what += fmt.Sprintf(", %d files", t.Files)
	}
	took := ""
	if t.Ended > 0 {
		took = " in " + (time.Duration(t.Ended-t.Started) * time.Millisecond).String()
	}
	line := fmt.Sprintf("%s %s: %s -> %s (%s)%s", t.ID, t.State, escapeControls(t.Src), escapeControls(t.Dst), what, took)
	if t.Error != "" {
		line += ": " + escapeControls(t.Error)
	}
	return line
}

func runTransfers(ctx *Context) error {
	var raw map[string]any
	if err := call("list-transfers", nil, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, raw)
	}
	var list proto.TransferList
	remarshal(raw, &list)
	if len(list.Transfers) == 0 {
		fmt.Fprintln(ctx.Stdout, "No copies.")
		return nil
	}
	var rows [][]string
	for _, t := range list.Transfers {
		prog := sizeText(t.Bytes) + " / " + sizeText(t.Total)
		by := t.StartedBy
		if len(by) > 8 && by != "person" {
			by = by[:8]
		}
		state := t.State
		if t.Error != "" {
			state += ": " + escapeControls(t.Error)
		}
		rows = append(rows, []string{t.ID, state, prog, by, escapeControls(t.Src), escapeControls(t.Dst)})
	}
	writeTable(ctx.Stdout, []string{"ID", "STATE", "BYTES", "BY", "SRC", "DST"}, rows)
	return nil
}

// parseRate reads --bwlimit: a number of bytes, or one with K, M or G
// (1024-based), at most 1 TiB a second.
func parseRate(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	num, mult := s, int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		num, mult = s[:len(s)-1], 1<<10
	case "M":
		num, mult = s[:len(s)-1], 1<<20
	case "G":
		num, mult = s[:len(s)-1], 1<<30
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > (1<<40)/mult {
		return 0, usageError("--bwlimit 10M", "--bwlimit is a rate from 1 byte to 1024G a second, such as 512K or 10M, not %q", s)
	}
	return n * mult, nil
}
