// Package review judges what an agent asks to do before a person allows it,
// and what it changed after.
//
// The risk rules: a Checker reads a call (a shell command line, or the path
// of a Write or Edit) and names the risk rules it matches, so that allowing
// a risky call takes two deliberate presses.
//
// The review of a change: ComputeDiff runs the real git binary over a
// worktree against its base (ResolveBase) through a temporary copy of the
// index and a temporary object directory, so the repository, its index and
// its objects are never changed; committed, uncommitted and untracked work
// come back together as a typed Diff (files, hunks, lines) within fixed
// limits. A Notebook holds a person's or a pane's notes on lines and hunks;
// Note.Follow keeps a note on its line's text as the code moves (outdated
// when the text is gone, found again when it returns); ComposeMessage is the
// one message that sends them back to the agent. The package runs no
// goroutines and keeps no files: the daemon stores the notes.
//
// # A speed bump, not a sandbox
//
// The rules read what the command line says, not what it will do. A command
// written to hide what it does passes them: a variable holding rm
// (X=rm; $X -rf /), an alias or a shell function, a script file (bash
// ./cleanup.sh), base64 piped to a shell, find -exec, a command sent over
// ssh, a program that deletes files itself. The harness's own permission
// system stays the boundary. The rules only make allowing a dangerous call
// take a second press.
//
// # How a shell line is read
//
// No shell is ever run. The package has its own reader:
//
//   - Segments are split on ;, newline, &, &&, ||, |, |& and a subshell's
//     ( and ), outside quotes. & next to > or < (2>&1, &>) is part of a
//     redirection. A pipe after a subshell's ) still links the commands on
//     both sides, so (curl …) | sh is one pipeline.
//   - Single quotes, double quotes, $'…' (decoded) and backslash escapes are
//     removed; a backslash-newline joins lines.
//   - $( ), backticks, <( ) and >( ) are read as nested command lines, also
//     inside double quotes and ${…}, never inside single quotes. A process
//     substitution stands in its command as the word /dev/fd/63. $(( )) is
//     arithmetic and not read.
//   - >, >>, >|, &>, &>> and N> mark the next word as a write target; >&N
//     writes nothing; the word after <, <<, <<< is input, not an argument.
//   - Words before the command are stripped, repeatedly: the reserved words
//     { } ! if then elif else while until do fi done esac, NAME=value
//     assignments, and wrappers with their flags, the values of their
//     value-taking flags and their leading operand: sudo, doas, env
//     (including env -S, read as a line), nohup, time, nice, command,
//     builtin, exec, xargs, timeout (its duration), stdbuf, ionice, chrt (its
//     priority), taskset (its mask), setsid, noglob, nocorrect, unbuffer,
//     caffeinate. sudo and doas mark the command as run by root.
//   - The program is the base name of the first word left (/bin/rm, \rm and
//     "rm" all read as rm).
//   - sh, bash, zsh, dash, ksh and fish with a flag cluster containing c
//     (-c, -lc, -e -c; -o X, +o X and -O X skip a value; fish --command)
//     run their first operand: it is read as a command line. eval joins its
//     words into a line that is read. Without c, a shell's first operand is
//     a script file and is not read.
//   - Nested lines are read to a depth of 4 and a line is read up to
//     MaxReadBytes (64 KiB). What could not be read whole (longer, deeper,
//     or reported clipped) adds the "cut short" hit, so that a risky part
//     that was not seen still asks for the second press. Unclosed quotes and
//     substitutions run to the end of the line.
//   - # at the start of a word starts a comment, as in the shell, so an
//     apostrophe in a comment cannot swallow the lines after it.
//   - A here-document's body (<<WORD, <<-WORD) is read as commands when it
//     feeds a shell (bash <<EOF), otherwise only its substitutions are read
//     (none when WORD is quoted); the database rule and custom rules also
//     read the body. A << whose delimiter line never comes is not a
//     here-document: the lines after it are read as commands.
//
// # Rules
//
// The twelve shipped rules, in hit order, are recursive delete, force push,
// hard reset, clean, discard changes, pipe to shell, sudo, disk, wide
// permissions, database, infrastructure and outside the worktree, each
// described on its Rule. Custom rules (RiskConfig) come
// after them; "cut short" comes last. Each rule is named once, with the text
// of the first command it matched, clipped to 100 characters.
//
// Decisions the documented rules leave open (each errs towards a hit
// rather than a miss, or follows what the shell does):
//
//   - sed -i's first operand is its script unless -e or -f is given, so
//     sed -i '/x/d' notes.txt is not outside.
//   - The word after < is input, not an operand, so < /etc/list rm -rf x
//     reads rm as the program.
//   - ~user/... (another user's home) is outside.
//   - A relative path is read from Request.Dir (else the worktree), so
//     ../x and sub/../../x climb out and count as outside the worktree (a
//     relative path is not safe just for being relative). A cd, pushd or
//     popd earlier in the line moves
//     where later relative paths are read from; after one whose target
//     is not known (cd -, cd "$X") they are not judged. A path a variable
//     or substitution writes ($D/x, `pwd`/x) is not judged either: the
//     carve-out above. $HOME and ${HOME} are the one variable read, since
//     they have one meaning.
//   - Wrappers have their own value-taking flags (sudo -s and xargs -r take
//     none), and the list goes past the common ones (chrt, taskset, setsid,
//     builtin, noglob, nocorrect, unbuffer, caffeinate); env -S is read as
//     a command line.
//   - "cut short" is also added for text nested deeper than MaxDepth; a
//     reported line ending in "…" counts as clipped.
//   - A custom rule that shares a shipped rule's name is reported once.
//
// # What it does not do
//
// The risk rules read no files and run nothing: the caller decodes the TOML
// config into a RiskConfig and passes the worktree and home directory in
// each Request. It does not hold approvals, count presses or check a
// risk_ack; that is the inbox's and the daemon's part.
package review
