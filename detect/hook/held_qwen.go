package hook

// Qwen Code 0.15.10 runs its PermissionRequest hooks right before it
// would draw its permission dialog, and waits on them (cli.js
// CoreToolScheduler: firePermissionRequestHook). A hook that prints
// {"hookSpecificOutput":{"decision":{"behavior":"allow"}}} runs the tool
// once; "deny" with a "message" cancels it and the model reads the
// message; no output (or no decision) shows the dialog as usual. That is
// Claude Code's answer, so Reply serves both.

// qwenInput is the part of Qwen Code's tool arguments a held line needs
// (run_shell_command, read_file and web_fetch's parameter schemas).
type qwenInput struct {
	Command   string  `json:"command"`
	Directory *string `json:"directory"`
	FilePath  string  `json:"file_path"`
	URL       string  `json:"url"`
}

// qwenHeld reads a Qwen Code PermissionRequest:
// run_shell_command (not with a directory, which the line would not
// show), read_file (its path, relative to the session's folder when
// under it) and web_fetch (the URL). Only once and deny are offered: Qwen
// Code hands the hook no permission suggestions on this path, so an
// "always" would add rules nobody was shown.
func qwenHeld(data []byte) (Held, bool) {
	var ti qwenInput
	p, ok := permissionRequest(data, &ti)
	if !ok {
		return Held{}, false
	}
	h := Held{Kind: "approval", Tool: p.ToolName, Options: []string{"once", "deny"}}
	switch p.ToolName {
	case "run_shell_command":
		if ti.Directory != nil {
			return Held{}, false
		}
		h.Target = ti.Command
	case "read_file":
		h.Target = relTo(ti.FilePath, p.Cwd)
	case "web_fetch":
		h.Target = ti.URL
	default:
		return Held{}, false
	}
	if h.Target == "" {
		return Held{}, false
	}
	// As for Claude Code: sent as it is, the daemon refuses what it
	// cannot show whole.
	h.Summary = "approve " + h.Tool + ": " + h.Target
	return h, true
}
