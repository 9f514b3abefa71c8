package daemon

// cutBytes cuts s to at most n bytes, at the start of a rune, so a UTF-8
// character is never split (a wait's matched line).
func cutBytes(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
