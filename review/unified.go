package review

import (
	"bytes"
	"strconv"
	"strings"
)

// ParsedFile is one file section of git's unified diff output.
type ParsedFile struct {
	Path    string // the new name (the old one for a deleted file)
	OldPath string // set for a rename
	Binary  bool   // "Binary files … differ"
	// Cut says the input ended inside this file's last hunk: its text
	// was clipped (the 2 MiB limit), so its hunks are not whole.
	Cut   bool
	Hunks []Hunk
}

// ParseUnified reads the output of git diff (a/ and b/ prefixes, paths
// not quoted for non-ASCII; quoted names are unquoted). It never fails:
// lines it does not understand are skipped, and input that ends early
// leaves the last file marked Cut. The parser is fuzzed.
func ParseUnified(b []byte) []ParsedFile {
	var files []ParsedFile
	var f *ParsedFile
	var h *Hunk
	oldLeft, newLeft := 0, 0 // lines the current hunk still holds
	oldNo, newNo := 0, 0
	for len(b) > 0 {
		var line []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			line, b = b, nil
		}
		if h != nil && (oldLeft > 0 || newLeft > 0) && len(line) > 0 {
			op := ""
			switch line[0] {
			case ' ':
				if oldLeft > 0 && newLeft > 0 {
					op = OpContext
				}
			case '+':
				if newLeft > 0 {
					op = OpAdd
				}
			case '-':
				if oldLeft > 0 {
					op = OpDelete
				}
			}
			if op != "" {
				l := Line{Op: op, Text: string(line[1:])}
				switch op {
				case OpContext:
					oldNo++
					newNo++
					l.Old, l.New = oldNo, newNo
					oldLeft--
					newLeft--
				case OpAdd:
					newNo++
					l.New = newNo
					newLeft--
				case OpDelete:
					oldNo++
					l.Old = oldNo
					oldLeft--
				}
				h.Lines = append(h.Lines, l)
				continue
			}
		}
		switch {
		case len(line) > 0 && line[0] == '\\': // "\ No newline at end of file"
			if h != nil && len(h.Lines) > 0 {
				h.Lines[len(h.Lines)-1].NoNewline = true
			}
		case bytes.HasPrefix(line, []byte("diff --git ")):
			files = append(files, ParsedFile{})
			f, h = &files[len(files)-1], nil
			oldLeft, newLeft = 0, 0
			f.OldPath, f.Path = gitLinePaths(string(line[len("diff --git "):]))
		case f == nil:
			// Text before the first file header is not a diff.
		case bytes.HasPrefix(line, []byte("@@ ")):
			nh, ok := parseHunkHeader(string(line))
			if !ok {
				h = nil
				continue
			}
			f.Hunks = append(f.Hunks, nh)
			h = &f.Hunks[len(f.Hunks)-1]
			oldLeft, newLeft = nh.OldLines, nh.NewLines
			oldNo, newNo = nh.OldStart-1, nh.NewStart-1
			if nh.OldLines == 0 {
				oldNo = nh.OldStart
			}
			if nh.NewLines == 0 {
				newNo = nh.NewStart
			}
		case h != nil:
			// A line past the hunk's counts that is no header: skipped.
		case bytes.HasPrefix(line, []byte("rename from ")):
			f.OldPath = cUnquote(string(line[len("rename from "):]))
		case bytes.HasPrefix(line, []byte("rename to ")):
			f.Path = cUnquote(string(line[len("rename to "):]))
		case bytes.HasPrefix(line, []byte("--- ")):
			if p := cUnquote(string(line[4:])); strings.HasPrefix(p, "a/") {
				f.OldPath = p[2:]
			}
		case bytes.HasPrefix(line, []byte("+++ ")):
			if p := cUnquote(string(line[4:])); strings.HasPrefix(p, "b/") {
				f.Path = p[2:]
			}
		case bytes.HasPrefix(line, []byte("Binary files ")) || bytes.Equal(line, []byte("GIT binary patch")):
			f.Binary = true
		}
	}
	if h != nil && (oldLeft > 0 || newLeft > 0) {
		f.Cut = true
	}
	for i := range files {
		pf := &files[i]
		if pf.Path == "" {
			pf.Path = pf.OldPath
		}
		if pf.OldPath == pf.Path {
			pf.OldPath = ""
		}
	}
	return files
}

// gitLinePaths reads "a/X b/Y" from a diff --git line. Names with spaces
// are split in the middle when both halves name the same file; quoted
// names are unquoted. Renames are fixed later by rename from/to.
func gitLinePaths(s string) (old, new string) {
	if strings.HasPrefix(s, `"`) {
		a, rest := quotedPrefix(s)
		rest = strings.TrimPrefix(rest, " ")
		b := cUnquote(rest)
		return strings.TrimPrefix(a, "a/"), strings.TrimPrefix(b, "b/")
	}
	if n := len(s); n%2 == 1 && strings.HasPrefix(s, "a/") && s[n/2] == ' ' && s[2:n/2] == s[n/2+3:] && strings.HasPrefix(s[n/2+1:], "b/") {
		return s[2 : n/2], s[2 : n/2]
	}
	if i := strings.Index(s, " b/"); i >= 0 && strings.HasPrefix(s, "a/") {
		return s[2:i], cUnquote(s[i+3:])
	}
	return "", ""
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ section".
func parseHunkHeader(s string) (Hunk, bool) {
	h := Hunk{Header: s}
	rest := strings.TrimPrefix(s, "@@ ")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return h, false
	}
	ranges := strings.Fields(rest[:end])
	if len(ranges) != 2 || !strings.HasPrefix(ranges[0], "-") || !strings.HasPrefix(ranges[1], "+") {
		return h, false
	}
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(ranges[0][1:])
	h.NewStart, h.NewLines, ok2 = parseRange(ranges[1][1:])
	return h, ok1 && ok2
}

func parseRange(s string) (start, n int, ok bool) {
	n = 1
	a, b, comma := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > 1<<30 {
		return 0, 0, false
	}
	if comma {
		n, err = strconv.Atoi(b)
		if err != nil || n < 0 || n > 1<<30 {
			return 0, 0, false
		}
	}
	return start, n, true
}

// quotedPrefix splits a leading C-quoted string from the rest.
func quotedPrefix(s string) (string, string) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return cUnquote(s[:i+1]), s[i+1:]
		}
	}
	return cUnquote(s), ""
}

// cUnquote undoes git's C-style quoting of a name ("a\tb", octal bytes);
// an unquoted name is returned as it is.
func cUnquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
