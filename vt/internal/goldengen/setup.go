package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitRepo makes a small repository with branches, merges and a tag, with
// fixed names and dates so the log is the same on every run.
func gitRepo(dir string) error {
	n := 0
	git := func(args ...string) error {
		n++
		date := fmt.Sprintf("2026-01-%02dT10:%02d:00Z", 1+n/20, n%60)
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{
			"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Ada Lovelace", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=" + date,
			"GIT_COMMITTER_NAME=Ada Lovelace", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE=" + date,
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
		return nil
	}
	commit := func(file, msg string) error {
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		fmt.Fprintln(f, msg)
		f.Close()
		if err := git("add", file); err != nil {
			return err
		}
		return git("commit", "-q", "-m", msg, "-m", "Longer description of: "+msg+".\nSecond line of the body.")
	}
	steps := []func() error{
		func() error { return git("init", "-q", "-b", "main") },
		func() error { return commit("README", "Initial commit") },
		func() error { return commit("a.go", "Add the parser") },
		func() error { return git("checkout", "-q", "-b", "feature/progress") },
		func() error { return commit("progress.go", "Parse OSC 9;4 progress reports") },
		func() error { return commit("progress.go", "Clamp the percent to 0-100") },
		func() error { return git("checkout", "-q", "main") },
		func() error { return commit("a.go", "Fix an off-by-one in the parser") },
		func() error { return git("checkout", "-q", "-b", "fix/wide-chars") },
		func() error { return commit("wide.go", "Handle wide characters at the right margin") },
		func() error { return git("checkout", "-q", "main") },
		func() error {
			return git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/progress'", "feature/progress")
		},
		func() error { return commit("b.go", "Add the dialog finder") },
		func() error {
			return git("merge", "-q", "--no-ff", "-m", "Merge branch 'fix/wide-chars'", "fix/wide-chars")
		},
		func() error { return git("tag", "v0.1.0") },
		func() error { return git("checkout", "-q", "-b", "experiment") },
		func() error { return commit("c.go", "Try a faster grid") },
		func() error { return git("checkout", "-q", "main") },
		func() error { return commit("README", "Document the golden screens") },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func sampleFile(dir string) error {
	var b strings.Builder
	b.WriteString("// Package sample is a file for the golden screens.\npackage sample\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "// Step%d does step number %d of the work and explains itself in a comment that is long enough to wrap past one hundred and twenty columns.\n", i, i)
		fmt.Fprintf(&b, "func Step%d(s string) string {\n\tif s == \"\" {\n\t\treturn fmt.Sprint(%d)\n\t}\n\treturn strings.Repeat(s, %d)\n}\n\n", i, i, i)
	}
	return os.WriteFile(filepath.Join(dir, "sample.go"), []byte(b.String()), 0o644)
}

func unicodeFile(dir string) error {
	lines := []string{
		"CJK: 日本語のテキスト、中文字符，한국어 텍스트 end",
		"Fullwidth: ＡＢＣ１２３ｘｙｚ end",
		"Emoji: 😀 🎉 🚀 ✅ ❌ 👍 🔥 end",
		"Skin tones: 👍🏽 👋🏿 end",
		"ZWJ: 👨‍👩‍👧‍👦 👩‍💻 end",
		"Flags: 🇯🇵 🇺🇸 🇫🇷 end",
		"VS16: ❤️ ✔️ ☺️ text: ❤ ✔ ☺ end",
		"Combining: e\u0301 a\u0300 n\u0303 o\u0308\u0304 end",
		"Box: ╭─────────╮ │ 日本 ok │ ╰─────────╯ end",
		"Mixed: abc日本def😀ghi end",
		"Wrap edge a: a" + strings.Repeat("字", 60) + "tail",
		"Wrap edge b: " + strings.Repeat("字", 54) + "ab" + strings.Repeat("字", 4) + "tail",
		"Greek Cyrillic: αβγ δεζ Ѐ Ё Ђ end",
		"Hiragana half-width kana: ｱｲｳｴｵ ﾊﾟ end",
		"",
		"╭──────────────────────────────╮",
		"│ 確認: ファイルを削除しますか │",
		"│ ❯ 1. はい                    │",
		"│   2. いいえ                  │",
		"╰──────────────────────────────╯",
		"done",
	}
	return os.WriteFile(filepath.Join(dir, "unicode.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func scrollScript(dir string) error {
	script := `e() { printf '\033%s' "$1"; }
e '[2J'; e '[H'
i=1; while [ $i -le 42 ]; do printf 'screen line %02d\n' $i; i=$((i+1)); done
e '[5;15r'; e '[15;1H'
i=1; while [ $i -le 8 ]; do printf '\nregion scroll %d' $i; i=$((i+1)); done
e '[5;1H'; e 'M'; e 'M'; printf 'reverse index twice'
e '[2S'; e '[1T'
e '[8;1H'; e '[2L'; printf 'inserted by IL'
e '[10;1H'; e '[1M'
e '[12;1H'; printf 'before NEL'; e 'E'; printf 'after NEL'
e '[15;1H'; e 'D'; e 'D'; printf 'index at bottom'
e '[r'
e '[20;30r'; e '[25;1H'; e '[3L'; printf 'three lines inserted above'
e '[r'
e '[30;35r'; e '[?6h'; e '[1;1H'; printf 'origin-mode home'; e '[6;1H'; printf 'origin-mode row 6'; e '[?6l'; e '[r'
e '[36;38r'; e '[38;1H'
i=1; while [ $i -le 5 ]; do printf '\npinned region %d' $i; i=$((i+1)); done
e '[r'
e '[1;37r'; e '[37;1H'
i=1; while [ $i -le 3 ]; do printf '\ntop-anchored region %d' $i; i=$((i+1)); done
e '[r'
e '[39;1H'; printf 'status: \033[7m NORMAL \033[0m scroll regions done'
e '[1;60H'; e '7'; e '[20;100H'; printf 'saved'; e '8'; printf '<restored'
e '[40;1H'
`
	return os.WriteFile(filepath.Join(dir, "scroll.sh"), []byte(script), 0o644)
}

// inkScript imitates an ink (React for terminals) app such as Claude Code:
// static lines printed above a dynamic part that is redrawn in place by
// erasing the previous frame's lines (ESC[2K, ESC[1A …, ESC[G), inside
// synchronized-output brackets, ending on a permission dialog.
func inkScript(dir string) error {
	script := `esc=$(printf '\033')
prev=0
erase() {
	n=$1
	while [ $n -gt 0 ]; do
		printf '%s[2K' "$esc"
		if [ $n -gt 1 ]; then printf '%s[1A' "$esc"; fi
		n=$((n-1))
	done
	if [ $1 -gt 0 ]; then printf '%s[G' "$esc"; fi
}
printf '%s[?25l' "$esc"
printf '\033[1m╭───────────────────────────────────────────╮\033[0m\n'
printf '\033[1m│\033[0m ✻ Welcome to Ink Agent!                   \033[1m│\033[0m\n'
printf '\033[1m│\033[0m   cwd: /home/ada/project                  \033[1m│\033[0m\n'
printf '\033[1m╰───────────────────────────────────────────╯\033[0m\n\n'
spin='✢ ✳ ✶ ✻ ✽ ✻ ✶ ✳'
i=0
while [ $i -lt 48 ]; do
	set -- $spin
	k=$((i % 8 + 1))
	eval "s=\${$k}"
	printf '%s[?2026h' "$esc"
	erase $prev
	if [ $((i % 4)) -eq 3 ]; then
		printf '\033[32m●\033[0m Read(\033[1mpkg/file_%02d.go\033[0m)\n' $i
		printf '  ⎿  Read %d lines (ctrl+r to expand)\n\n' $((i * 7 + 3))
	fi
	printf '\033[38;5;209m%s Thinking…\033[0m \033[2m(%ds · ↓ %d tokens · esc to interrupt)\033[0m\n\n' "$s" $i $((i * 37))
	printf '╭────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮\n'
	printf '│ > \033[2mTry "refactor the parser"\033[0m                                                                                      │\n'
	printf '╰────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯\n'
	printf '  \033[2m⏵⏵ auto-accept edits on (shift+tab to cycle)\033[0m\n'
	printf '%s[?2026l' "$esc"
	prev=7
	i=$((i+1))
done
printf '%s[?2026h' "$esc"
erase $prev
printf '\033[32m●\033[0m Bash(rm -rf build/)\n\n'
printf '╭────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮\n'
printf '│ \033[1mBash command\033[0m                                                                                                       │\n'
printf '│                                                                                                                    │\n'
printf '│   rm -rf build/                                                                                                    │\n'
printf '│   Remove build artifacts                                                                                           │\n'
printf '│                                                                                                                    │\n'
printf '│ Do you want to proceed?                                                                                            │\n'
printf '│ \033[36m❯ 1. Yes\033[0m                                                                                                           │\n'
printf '│   2. No, and tell Claude what to do differently (esc)                                                              │\n'
printf '╰────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯\n'
printf '%s[?2026l' "$esc"
printf '%s[?25h' "$esc"
`
	return os.WriteFile(filepath.Join(dir, "ink.sh"), []byte(script), 0o644)
}
