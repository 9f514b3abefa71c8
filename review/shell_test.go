package review

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestReaderCommands checks what the reader makes of one line: every
// command's argv (after unwrapping), write targets and sudo mark.
func TestReaderCommands(t *testing.T) {
	type cmd struct {
		args   string // argv joined by "|"
		writes string // write targets joined by "|"
		sudo   bool
	}
	tests := []struct {
		line string
		want []cmd
	}{
		{`rm -rf x`, []cmd{{args: "rm|-rf|x"}}},
		{`'r'"m" -rf x`, []cmd{{args: "rm|-rf|x"}}},
		{`r\m -rf x`, []cmd{{args: "rm|-rf|x"}}},
		{"echo a\\\nb", []cmd{{args: "echo|ab"}}},
		{`echo "a \"b\" \$c \x"`, []cmd{{args: `echo|a "b" $c \x`}}},
		{`echo $'a\tb\x41\101\'c'`, []cmd{{args: "echo|a\tbAA'c"}}},
		{`echo $"hi"`, []cmd{{args: "echo|hi"}}},
		{`echo 'a;b' "c|d" e\;f`, []cmd{{args: "echo|a;b|c|d|e;f"}}},
		{`a;b`, []cmd{{args: "a"}, {args: "b"}}},
		{"a\nb", []cmd{{args: "a"}, {args: "b"}}},
		{`a&b`, []cmd{{args: "a"}, {args: "b"}}},
		{`a&&b||c|d|&e`, []cmd{{args: "a"}, {args: "b"}, {args: "c"}, {args: "d"}, {args: "e"}}},
		{`(a; b) && { c; }`, []cmd{{args: "a"}, {args: "b"}, {args: "c"}, {args: ""}}},
		{`make >out.log 2>&1`, []cmd{{args: "make", writes: "out.log"}}},
		{`make &>all.log`, []cmd{{args: "make", writes: "all.log"}}},
		{`make &>>all.log`, []cmd{{args: "make", writes: "all.log"}}},
		{`make 2>err.log 1>>out.log`, []cmd{{args: "make", writes: "err.log|out.log"}}},
		{`echo x>|f`, []cmd{{args: "echo|x", writes: "f"}}},
		{`echo x >&2`, []cmd{{args: "echo|x"}}},
		{`echo x >& f`, []cmd{{args: "echo|x", writes: "f"}}},
		{`echo x 2>&-`, []cmd{{args: "echo|x"}}},
		{`echo a2>f`, []cmd{{args: "echo|a2", writes: "f"}}},
		{`echo "2">f`, []cmd{{args: "echo|2", writes: "f"}}},
		{`sort < in.txt > out.txt`, []cmd{{args: "sort", writes: "out.txt"}}},
		{`cat <<EOF`, []cmd{{args: "cat"}}},
		{`cat <<< "hi"`, []cmd{{args: "cat"}}},
		{`diff <(a) >(b)`, []cmd{{args: "a"}, {args: "b"}, {args: "diff|/dev/fd/63|/dev/fd/63"}}},
		{`echo $(a $(b)) ` + "`c`", []cmd{{args: "b"}, {args: "a|$(b)"}, {args: "c"}, {args: "echo|$(a $(b))|`c`"}}},
		{`echo "$(a)" '$(b)'`, []cmd{{args: "a"}, {args: `echo|$(a)|$(b)`}}},
		{`echo ${x:-$(a)}`, []cmd{{args: "a"}, {args: "echo|${x:-$(a)}"}}},
		{`echo $((1+(2*3)))`, []cmd{{args: "echo|$((1+(2*3)))"}}},
		{"echo `a \\`b\\``", []cmd{{args: "b"}, {args: "a|`b`"}, {args: "echo|`a \\`b\\``"}}},
		{`X=1 Y+=2 A[0]=3 run`, []cmd{{args: "run"}}},
		{`X=rm`, []cmd{{args: ""}}},
		{`! if then elif else while until do fi done esac { } run`, []cmd{{args: "run"}}},
		{`sudo -u root -g wheel -E rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`sudo --user=root --chdir /x -- rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`sudo -uroot VAR=1 rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`sudo -i`, []cmd{{args: "", sudo: true}}},
		{`doas -u op rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`env - A=1 rm x`, []cmd{{args: "rm|x"}}},
		{`env -u HOME --unset PATH -C /tmp rm x`, []cmd{{args: "rm|x"}}},
		{`env -S 'rm -rf x' y`, []cmd{{args: ""}, {args: "rm|-rf|x|y"}}},
		{`env --split-string='rm -rf x'`, []cmd{{args: ""}, {args: "rm|-rf|x"}}},
		{`nohup rm x &`, []cmd{{args: "rm|x"}}},
		{`time -p rm x`, []cmd{{args: "rm|x"}}},
		{`time -f %e -o t.txt rm x`, []cmd{{args: "rm|x"}}},
		{`nice -5 rm x`, []cmd{{args: "rm|x"}}},
		{`nice --adjustment 5 rm x`, []cmd{{args: "rm|x"}}},
		{`command -p rm x`, []cmd{{args: "rm|x"}}},
		{`exec -a name rm x`, []cmd{{args: "rm|x"}}},
		{`xargs -0 -n 1 -P 4 -I {} rm {}`, []cmd{{args: "rm|{}"}}},
		{`xargs -i rm {}`, []cmd{{args: "rm|{}"}}},
		{`xargs --max-args 1 --null rm`, []cmd{{args: "rm"}}},
		{`timeout -s KILL -k 5 1.5m rm x`, []cmd{{args: "rm|x"}}},
		{`timeout --signal=TERM 10s rm x`, []cmd{{args: "rm|x"}}},
		{`stdbuf -oL -e 0 rm x`, []cmd{{args: "rm|x"}}},
		{`ionice -c 3 -n 7 rm x`, []cmd{{args: "rm|x"}}},
		{`chrt -f 99 rm x`, []cmd{{args: "rm|x"}}},
		{`chrt --idle 0 rm x`, []cmd{{args: "rm|x"}}},
		{`taskset -c 0-3 rm x`, []cmd{{args: "rm|x"}}},
		{`setsid -f nocorrect noglob builtin unbuffer rm x`, []cmd{{args: "rm|x"}}},
		{`caffeinate -t 60 rm x`, []cmd{{args: "rm|x"}}},
		{`exec sudo nice -n 1 env A=1 timeout 5 xargs rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`FOO=1 sudo BAR=2 rm x`, []cmd{{args: "rm|x", sudo: true}}},
		{`bash -c 'a; b'`, []cmd{{args: "bash|-c|a; b"}, {args: "a"}, {args: "b"}}},
		{`sh -ec -- 'a'`, []cmd{{args: "sh|-ec|--|a"}, {args: "a"}}},
		{`bash +o posix -O extglob -c a`, []cmd{{args: "bash|+o|posix|-O|extglob|-c|a"}, {args: "a"}}},
		{`bash --rcfile x -c a`, []cmd{{args: "bash|--rcfile|x|-c|a"}, {args: "a"}}},
		{`fish --command=a`, []cmd{{args: "fish|--command=a"}, {args: "a"}}},
		{`bash script.sh -c a`, []cmd{{args: "bash|script.sh|-c|a"}}},
		{`eval a b`, []cmd{{args: "eval|a|b"}, {args: "a|b"}}},
		{`rm "unclosed`, []cmd{{args: "rm|unclosed"}}},
		{`rm 'unclosed`, []cmd{{args: "rm|unclosed"}}},
		{`echo $(a`, []cmd{{args: "a"}, {args: "echo|$(a"}}},
		{"echo `a", []cmd{{args: "a"}, {args: "echo|`a"}}},
		{`a )) b`, []cmd{{args: "a"}, {args: "b"}}},
		{`a \`, []cmd{{args: "a"}}},
	}
	for _, tt := range tests {
		var r reader
		r.read(tt.line)
		var got []cmd
		for _, c := range r.cmds {
			got = append(got, cmd{args: strings.Join(c.args, "|"), writes: strings.Join(c.writes, "|"), sudo: c.sudo})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.line, got, tt.want)
		}
	}
}

func TestReaderPipelines(t *testing.T) {
	tests := []struct {
		line string
		want []int // pipeline of each command, numbered from 0 in order of first use
	}{
		{`a | b | c`, []int{0, 0, 0}},
		{`a | b; c | d`, []int{0, 0, 1, 1}},
		{`a |& b && c`, []int{0, 0, 1}},
		{`(a) | b`, []int{0, 0}},
		{`(a; b) | c`, []int{0, 1, 1}},
		{`a || b | c`, []int{0, 1, 1}},
		{`a & b | c`, []int{0, 1, 1}},
	}
	for _, tt := range tests {
		var r reader
		r.read(tt.line)
		ids := map[int]int{}
		var got []int
		for _, c := range r.cmds {
			id, ok := ids[c.pipe]
			if !ok {
				id = len(ids)
				ids[c.pipe] = id
			}
			got = append(got, id)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: pipelines %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestRulesOwnCases covers every wrapper and quoting form against the rules,
// with the corpus fixture (root /src/api, home /home/me).
func TestRulesOwnCases(t *testing.T) {
	RD, FP, HR, CL, DC, PS, SU, DK, WP, DB, IN, OW, CS := RuleRecursiveDelete, RuleForcePush, RuleHardReset,
		RuleClean, RuleDiscardChanges, RulePipeToShell, RuleSudo, RuleDisk, RuleWidePermissions, RuleDatabase,
		RuleInfrastructure, RuleOutside, RuleCutShort
	tests := []struct {
		line string
		want []string
	}{
		// wrappers
		{`sudo rm -rf build`, []string{RD, SU}},
		{`sudo -E -H -u deploy rm -rf build`, []string{RD, SU}},
		{`sudo --user deploy -- rm -rf build`, []string{RD, SU}},
		{`doas -u op rm -rf build`, []string{RD, SU}},
		{`env rm -rf out`, []string{RD}},
		{`env -u HOME -C sub rm -rf out`, []string{RD}},
		{`env -S 'rm -rf out'`, []string{RD}},
		{`nohup rm -rf out &`, []string{RD}},
		{`time rm -rf out`, []string{RD}},
		{`time -p rm -rf out`, []string{RD}},
		{`nice rm -rf out`, []string{RD}},
		{`nice -n10 rm -rf out`, []string{RD}},
		{`command rm -rf out`, []string{RD}},
		{`builtin command rm -rf out`, []string{RD}},
		{`exec rm -rf out`, []string{RD}},
		{`exec -a x rm -rf out`, []string{RD}},
		{`xargs -I{} rm -rf {}`, []string{RD}},
		{`xargs -n 1 rm -rf`, []string{RD}},
		{`find . -type d | xargs -0 rm -rf`, []string{RD}},
		{`ls | xargs sh -c 'git clean -f'`, []string{CL}},
		{`timeout 10 rm -rf out`, []string{RD}},
		{`timeout -k 2 5s rm -rf out`, []string{RD}},
		{`stdbuf -oL rm -rf out`, []string{RD}},
		{`ionice -c3 rm -rf out`, []string{RD}},
		{`ionice -c 3 rm -rf out`, []string{RD}},
		{`chrt -r 10 rm -rf out`, []string{RD}},
		{`taskset 0x3 rm -rf out`, []string{RD}},
		{`setsid rm -rf out`, []string{RD}},
		{`sudo nohup nice -n 5 timeout 30 env A=1 rm -rf out`, []string{RD, SU}},
		// quoting and escapes
		{`'rm' '-rf' 'out'`, []string{RD}},
		{`r"m" -r"f" out`, []string{RD}},
		{`$'rm' -rf out`, []string{RD}},
		{`$'\x72m' -rf out`, []string{RD}},
		{`\r\m -\r\f out`, []string{RD}},
		{`echo "rm -rf /"`, nil},
		{`echo rm -rf /`, nil},
		{`printf '%s' "$(rm -rf out)"`, []string{RD}},
		{`echo '$(rm -rf out)'`, nil},
		{`echo "\$(rm -rf out)"`, nil},
		{`echo \$\(rm -rf out\)`, nil},
		{"echo \"`rm -rf out`\"", []string{RD}},
		{"echo '`rm -rf out`'", nil},
		{`echo ${X:-$(rm -rf out)}`, []string{RD}},
		{`cat <(rm -rf out)`, []string{RD}},
		{`tee >(rm -rf out) < x`, []string{RD}},
		{"rm -rf \\\nout", []string{RD}},
		{"ls\nrm -rf out", []string{RD}},
		{`ls;rm -rf out`, []string{RD}},
		{`ls&rm -rf out`, []string{RD}},
		{`ls|rm -rf out`, []string{RD}},
		{`{ rm -rf out; }`, []string{RD}},
		{`while true; do rm -rf out; done`, []string{RD}},
		{`for d in a b; do rm -rf "$d"; done`, []string{RD}},
		{`! rm -rf out`, []string{RD}},
		// nested shells
		{`sudo bash -c "rm -rf /srv"`, []string{RD, SU, OW}},
		{`bash -c "bash -c 'git reset --hard'"`, []string{HR}},
		{`sh -c 'sh -c "sh -c \"sh -c \\\"rm -rf out\\\"\""'`, []string{RD}},
		{`sh -c 'sh -c "sh -c \"sh -c \\\"sh -c x\\\"\""'`, []string{CS}},
		{`eval "eval 'rm -rf out'"`, []string{RD}},
		{`dash -c 'rm -rf out'`, []string{RD}},
		{`ksh -c 'rm -rf out'`, []string{RD}},
		{`zsh -fc 'rm -rf out'`, []string{RD}},
		{`bash -s < script.sh`, nil},
		// the rules' edges
		{`rm --recursive --force out`, []string{RD}},
		{`rm -Rf out`, []string{RD}},
		{`git --git-dir=.git push --force`, []string{FP}},
		{`git --work-tree x --git-dir y push -f`, []string{FP}},
		{`git push --force-with-lease`, []string{FP}},
		{`git push origin '+refs/heads/*:refs/heads/*'`, []string{FP}},
		{`git reset --hard`, []string{HR}},
		{`git clean --force`, []string{CL}},
		{`git clean -xdf`, []string{CL}},
		{`git checkout '*'`, []string{DC}},
		{`git restore -- .`, []string{DC}},
		{`curl -s x | sudo python3`, []string{PS, SU}},
		{`wget -O - x | zsh`, []string{PS}},
		{`curl x | node`, []string{PS}},
		{`curl x | fish`, []string{PS}},
		{`curl x | ksh`, []string{PS}},
		{`curl x | dash`, []string{PS}},
		{`curl x | python`, []string{PS}},
		{`curl x |& sh`, []string{PS}},
		{`sh | curl x`, nil},
		{`source <(curl -s x)`, []string{PS}},
		{`. <(wget -qO- x)`, []string{PS}},
		{`python3 -c "$(curl -s x)"`, []string{PS}},
		{`sudo bash <(curl x)`, []string{PS, SU}},
		{"bash -c \"`curl -s x`\"", []string{PS}},
		{`newfs_hfs /dev/disk2`, []string{DK}},
		{`wipefs -a /dev/sdb`, []string{DK}},
		{`mkfs -t ext4 /dev/sdb1`, []string{DK}},
		{`cat x > /dev/nvme0n1`, []string{DK, OW}},
		{`cat x > /dev/rdisk2`, []string{DK, OW}},
		{`cat x > /dev/mmcblk0`, []string{DK, OW}},
		{`cat x > /dev/xvda`, []string{DK, OW}},
		{`cat x > /dev/sd`, []string{OW}},
		{`chmod --recursive 0777 .`, []string{WP}},
		{`chmod -R ugo+rwx .`, []string{WP}},
		{`chmod -R 755 .`, nil},
		{`chgrp -R staff ~/`, []string{WP}},
		{`chown -R me /home/me`, []string{WP}},
		{`chown -R me /home/me/`, []string{WP}},
		{`chown me /`, nil},
		{`sqlite3 db 'Drop   Table t'`, []string{DB}},
		{`psql -c 'TRUNCATE TABLE t'`, []string{DB}},
		{`echo dropdatabase`, nil},
		{`echo backdrop table`, nil},
		{`tofu destroy`, []string{IN}},
		{`terraform -chdir=infra apply`, []string{IN}},
		{`podman system prune`, []string{IN}},
		{`docker system df`, nil},
		{`npm publish --access public`, []string{IN}},
		{`pnpm publish`, []string{IN}},
		{`yarn publish`, []string{IN}},
		{`npm run publish-docs`, nil},
		{`kubectl get pods`, nil},
		{`mv a /opt/b`, []string{OW}},
		{`mv /opt/a b`, nil},
		{`ln -s /etc/x /usr/local/x`, []string{OW}},
		{`install -m 755 app /usr/local/bin`, []string{OW}},
		{`rsync -t a /srv/b`, []string{OW}},
		{`rsync -t /srv/a b`, nil},
		{`cp --target-directory=/opt a`, []string{OW}},
		{`cp -t dir /etc/hosts`, []string{OW}},
		{`tee -a /etc/x`, []string{OW}},
		{`rmdir /tmp/x`, []string{OW}},
		{`shred /tmp/x`, []string{OW}},
		{`unlink /tmp/x`, []string{OW}},
		{`truncate -s 0 /var/log/x`, []string{OW}},
		{`sed --in-place 's/a/b/' /etc/x`, []string{OW}},
		{`sed -i '/^#/d' notes.txt`, nil},
		{`sed -i -e 's/a/b/' /etc/x`, []string{OW}},
		{`sed 's/a/b/' /etc/x`, nil},
		{`touch ~other/x`, []string{OW}},
		{`touch ${HOME}/x`, []string{OW}},
		{`touch "/src/api/../api2/x"`, []string{OW}},
		{`touch /src/api/./x`, nil},
		{`echo x > /dev/stdout`, nil},
		{`echo x > /dev/tty`, nil},
		{`echo x > /dev/fd/3`, nil},
		{`echo x | tee /dev/stderr`, nil},
		{`echo x > /dev/zero`, []string{OW}},
		// order and dedupe
		{`rm -rf a; rm -rf b`, []string{RD}},
		{`sudo ls && sudo rm -rf /x && git push -f`, []string{RD, FP, SU, OW}},
	}
	c, err := NewChecker(RiskConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got := ruleNames(c.Check(Request{Tool: "Bash", Command: tt.line, Worktree: "/src/api", Home: "/home/me"}))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestHitText(t *testing.T) {
	c, _ := NewChecker(RiskConfig{})
	long := "rm -rf " + strings.Repeat("é", 200)
	tests := []struct {
		line string
		rule string
		text string
	}{
		{`ls && rm -rf out || true`, RuleRecursiveDelete, "rm -rf out"},
		{`echo "$(rm -rf out)"`, RuleRecursiveDelete, "rm -rf out"},
		{`curl -s x | tee y | sh; ls`, RulePipeToShell, "curl -s x | tee y | sh"},
		{`bash <(curl -s x)`, RulePipeToShell, "bash <(curl -s x)"},
		{long, RuleRecursiveDelete, "rm -rf " + strings.Repeat("é", 93)},
	}
	for _, tt := range tests {
		var got *Hit
		for _, h := range c.Check(Request{Command: tt.line, Worktree: "/src/api"}) {
			if h.Rule == tt.rule {
				got = &h
			}
		}
		if got == nil {
			t.Errorf("%q: no %s hit", tt.line, tt.rule)
			continue
		}
		if got.Text != tt.text {
			t.Errorf("%q: text %q, want %q", tt.line, got.Text, tt.text)
		}
		if got.Why == "" {
			t.Errorf("%q: no why", tt.line)
		}
	}
}

func TestReadLimit(t *testing.T) {
	c, _ := NewChecker(RiskConfig{})
	line := strings.Repeat("x", MaxReadBytes) + "; rm -rf /"
	got := ruleNames(c.Check(Request{Command: line, Worktree: "/src/api"}))
	if !slices.Equal(got, []string{RuleCutShort}) {
		t.Errorf("long line: got %q, want only cut short", got)
	}
	line = "rm -rf /; " + strings.Repeat("é", MaxReadBytes)
	got = ruleNames(c.Check(Request{Command: line, Worktree: "/src/api"}))
	if !slices.Equal(got, []string{RuleRecursiveDelete, RuleOutside, RuleCutShort}) {
		t.Errorf("long line: got %q", got)
	}
	exact := strings.Repeat("x", MaxReadBytes)
	if got := c.Check(Request{Command: exact}); len(got) != 0 {
		t.Errorf("64 KiB exactly: got %v, want no hit", got)
	}
	// A file tool's path and any other tool's text are cut short too.
	if got := ruleNames(c.Check(Request{Tool: "Write", Command: strings.Repeat("a", MaxReadBytes+1), Worktree: "/src/api"})); !slices.Equal(got, []string{RuleCutShort}) {
		t.Errorf("long path: got %q", got)
	}
}

func TestToolKinds(t *testing.T) {
	c, _ := NewChecker(RiskConfig{})
	for _, tool := range []string{"", "Bash", "BASH", "shell", "exec_command", "local_shell", "run_shell_command", "execute", "terminal"} {
		if got := ruleNames(c.Check(Request{Tool: tool, Command: "rm -rf x"})); !slices.Equal(got, []string{RuleRecursiveDelete}) {
			t.Errorf("tool %q: got %q", tool, got)
		}
	}
	for _, tool := range []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "write", "edit", "multiedit", "patch", "write_file", "replace"} {
		req := Request{Tool: tool, Command: `"/etc/x"`, Worktree: "/src/api"}
		if got := ruleNames(c.Check(req)); !slices.Equal(got, []string{RuleOutside}) {
			t.Errorf("tool %q: got %q", tool, got)
		}
		req.Command = "rm -rf /src/api/x"
		if got := c.Check(req); len(got) != 0 {
			t.Errorf("tool %q reads its path as a command: %v", tool, got)
		}
	}
	for _, tool := range []string{"Read", "Grep", "WebFetch", "mcp__db__query"} {
		if got := c.Check(Request{Tool: tool, Command: "rm -rf / && DROP TABLE x", Worktree: "/src/api"}); len(got) != 0 {
			t.Errorf("tool %q: got %v", tool, got)
		}
	}
}

func TestCustomRules(t *testing.T) {
	c, err := NewChecker(RiskConfig{Rules: []RiskRule{
		{Name: "mcp", Tools: []string{"mcp__db__query"}, Pattern: `(?i)delete`},
		{Name: "shell only", Tools: []string{"terminal"}, Pattern: `deploy`},
		{Name: "recursive delete", Pattern: `rm`}, // same name as a shipped rule: reported once
	}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, text string
		want       []string
	}{
		{"MCP__DB__QUERY", "DELETE FROM x", []string{"mcp"}},
		{"mcp__other", "DELETE FROM x", nil},
		{"", "make deploy", []string{"shell only"}},
		{"Bash", "echo x; ./deploy.sh", []string{"shell only"}},
		{"Write", "deploy.txt", nil},
		{"Bash", "rm -rf x", []string{RuleRecursiveDelete}},
	}
	for _, tt := range tests {
		if got := ruleNames(c.Check(Request{Tool: tt.tool, Command: tt.text})); !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: got %q, want %q", tt.tool, tt.text, got, tt.want)
		}
	}
}

func TestNewCheckerErrors(t *testing.T) {
	c, err := NewChecker(RiskConfig{Rules: []RiskRule{
		{Name: "good", Pattern: `x`},
		{Name: "", Pattern: `y`},
		{Name: "empty"},
		{Name: "broken", Pattern: `a(`},
	}})
	if err == nil {
		t.Fatal("no error")
	}
	var e *Error
	if !errors.As(err, &e) || e.Code() != CodeInvalidParams || e.Hint() == "" {
		t.Fatalf("error %#v is not an *Error with code and hint", err)
	}
	msg := err.Error()
	for _, want := range []string{`risk rule "rule 2": has no name`, `risk rule "empty": has no pattern`, `risk rule "broken": pattern "a(" does not compile`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
	if c == nil {
		t.Fatal("nil checker on error")
	}
	if got := c.Rules(); len(got) != len(shipped)+1 || got[len(got)-1] != "good" {
		t.Errorf("rules kept: %q", got)
	}
}

func TestRequestFromLine(t *testing.T) {
	tests := []struct {
		line string
		want Request
		ok   bool
	}{
		{"approve Bash: rm -rf x", Request{Tool: "Bash", Command: "rm -rf x"}, true},
		{"approve Write: /etc/hosts", Request{Tool: "Write", Command: "/etc/hosts"}, true},
		{"approve the deploy: now", Request{Command: "approve the deploy: now"}, true},
		{"Claude needs your permission to use Bash", Request{Command: "Claude needs your permission to use Bash"}, true},
		{"approve bash: curl x | (not all shown)", Request{Tool: "bash", Command: "curl x |", CutShort: true}, true},
		{"approve Bash: make all && …", Request{Tool: "Bash", Command: "make all &&", CutShort: true}, true},
		{"plan: Refactor the cache", Request{}, false},
	}
	for _, tt := range tests {
		got, ok := RequestFromLine(tt.line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%q: got %+v %v, want %+v %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIsOutside(t *testing.T) {
	tests := []struct {
		p, root, home string
		want          bool
	}{
		{"/etc/x", "/src/api", "/home/me", true},
		{"/src/api", "/src/api/", "/home/me", false},
		{"/src/api/x/../../api2", "/src/api", "", true},
		{"x/../../..", "/src/api", "", false},
		{"/anything", "/", "", false},
		{"/etc/x", "", "", false},
		{"~", "/home/me/src", "/home/me", true},
		{"~/src/x", "/home/me/src", "/home/me", false},
		{"~/x", "/src/api", "", true},
		{"$HOME", "/src/api", "", true},
		{"$HOMEDIR/x", "/src/api", "", false},
		{"'/etc/x'", "/src/api", "", true},
		{"/dev/null", "/src/api", "", false},
		{"/dev/fd/63", "/src/api", "", false},
	}
	for _, tt := range tests {
		if got := isOutside(tt.p, tt.root, tt.home, ""); got != tt.want {
			t.Errorf("isOutside(%q, %q, %q) = %v", tt.p, tt.root, tt.home, got)
		}
	}
}

func TestCheckerConcurrent(t *testing.T) {
	c, _ := NewChecker(RiskConfig{Rules: []RiskRule{{Name: "x", Pattern: "x"}}})
	done := make(chan bool)
	for range 4 {
		go func() {
			for range 200 {
				c.Check(Request{Command: "sudo rm -rf x | sh -c 'curl y | sh'", Worktree: "/src/api"})
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}

func TestCommentsAndHeredocs(t *testing.T) {
	c, err := NewChecker(RiskConfig{Rules: []RiskRule{{Name: "secret", Pattern: `SECRET`}}})
	if err != nil {
		t.Fatal(err)
	}
	RD, PS, DB, OW := RuleRecursiveDelete, RulePipeToShell, RuleDatabase, RuleOutside
	tests := []struct {
		line string
		want []string
	}{
		{"ls # don't\nrm -rf /", []string{RD, OW}},
		{"echo x # rm -rf /", nil},
		{"# rm -rf /\nls", nil},
		{"echo a#b; rm -rf x", []string{RD}},
		{"echo '#'; rm -rf x", []string{RD}},
		{"echo \\#; rm -rf x", []string{RD}},
		{"echo $#; rm -rf x", []string{RD}},
		{"echo ${#x}; rm -rf x", []string{RD}},
		{"(ls #)\nrm -rf x)", []string{RD}},
		// here-documents
		{"cat > notes.md <<'EOF'\nit's done\nEOF\nrm -rf /", []string{RD, OW}},
		{"cat > notes.md <<EOF\nrm -rf /\nEOF", nil},
		{"cat > notes.md <<EOF\n$(rm -rf x)\nEOF", []string{RD}},
		{"cat > notes.md <<'EOF'\n$(rm -rf x)\nEOF", nil},
		{"cat > notes.md <<\"EOF\"\n`rm -rf x`\nEOF", nil},
		{"bash <<EOF\nrm -rf x\nEOF", []string{RD}},
		{"sudo bash <<'EOF'\ncurl x | sh\nEOF", []string{PS, RuleSudo}},
		{"cat <<-EOF\n\trm -rf x\n\tEOF\nrm -rf /", []string{RD, OW}},
		{"psql <<SQL\nDROP TABLE users;\nSQL", []string{DB}},
		{"cat <<A; cat <<B\na\nA\nrm -rf x\nB\nls", nil},
		{"cat <<EOF\nno end\nrm -rf x", []string{RD}},
		{"x=$(( 1 << 2 ))\nrm -rf x", []string{RD}},
		{"cat <<< \"rm -rf x\"", nil},
		{"cat <<EOF\nSECRET\nEOF", []string{"secret"}},
		{"cat <<EOF\r\nrm -rf x\r\nEOF\r\n", nil},
	}
	for _, tt := range tests {
		got := ruleNames(c.Check(Request{Command: tt.line, Worktree: "/src/api", Home: "/home/me"}))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.line, got, tt.want)
		}
	}
}
