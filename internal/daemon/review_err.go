package daemon

// codeGitFailed is a git call that failed for a reason of its own.
const codeGitFailed = "git_failed"
