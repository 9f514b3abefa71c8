package agentstate

import "strings"

// secretPrefixes start tokens that are almost always credentials.
var secretPrefixes = [...]string{
	"sk-", "sk_live_", "sk_test_", "rk_live_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
	"github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxs-", "AKIA", "ASIA",
	"AIza", "ya29.", "npm_", "hf_", "pypi-", "eyJ",
}

// secretKeys are assignment names whose value is masked (password=…).
var secretKeys = [...]string{"password", "passwd", "secret", "token", "apikey", "api_key", "access_key", "private_key", "authorization"}

// MaskSecrets replaces likely secrets in a line of text with "****": tokens
// with a known credential prefix, the value of key=value or key: value
// assignments whose key names a secret, and long unbroken runs that look
// like keys. It is a best effort for display text, not a guarantee.
func MaskSecrets(s string) string {
	if s == "" {
		return s
	}
	words := strings.Fields(s)
	changed := false
	for i, w := range words {
		if m := maskWord(w); m != w {
			words[i] = m
			changed = true
		}
	}
	// "password: hunter2" masks the word after the key.
	for i := 0; i+1 < len(words); i++ {
		k := strings.ToLower(strings.TrimRight(words[i], ":="))
		if k != strings.ToLower(words[i]) && isSecretKey(k) && words[i+1] != "****" {
			words[i+1] = "****"
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(words, " ")
}

func maskWord(w string) string {
	if i := strings.IndexAny(w, "=:"); i > 0 && i < len(w)-1 {
		key := strings.ToLower(strings.Trim(w[:i], `"'-`))
		if isSecretKey(key) {
			return w[:i+1] + "****"
		}
	}
	bare := strings.Trim(w, `"'(),;`)
	for _, p := range secretPrefixes {
		if strings.HasPrefix(bare, p) && len(bare) >= len(p)+8 {
			return strings.Replace(w, bare, "****", 1)
		}
	}
	if len(bare) >= 32 && looksLikeKey(bare) {
		return strings.Replace(w, bare, "****", 1)
	}
	return w
}

func isSecretKey(k string) bool {
	for _, s := range secretKeys {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// looksLikeKey: long, no path separators, and a mix of letters and digits.
func looksLikeKey(s string) bool {
	var letters, digits int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || c == '-' || c == '+' || c == '=':
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}
