package attention

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/proto"
)

// chooseOption finds option n on the prompt. When it is not there the
// error names the numbers the prompt does have, and its hint offers them
// rather than "choose" (which would read as if n were fine).
func chooseOption(p detect.Prompt, n int) (detect.PromptOption, *proto.Error) {
	for _, o := range p.Options {
		if o.N == n {
			return o, nil
		}
	}
	nums := make([]string, 0, len(p.Options))
	for _, o := range p.Options {
		nums = append(nums, strconv.Itoa(o.N))
	}
	has := "no numbered options"
	switch {
	case len(nums) == 0:
	case contiguous(p.Options):
		has = "options " + nums[0] + "-" + nums[len(nums)-1]
		if len(nums) == 1 {
			has = "option " + nums[0]
		}
	default:
		has = "options " + strings.Join(nums, ", ")
	}
	return detect.PromptOption{}, proto.Errorf(proto.CodeInvalidParams, "option %d is not offered; this prompt has %s", n, has).
		WithHint(proto.Hint{Accepted: nums, Detail: "choose one of the numbers the prompt shows"})
}

func contiguous(opts []detect.PromptOption) bool {
	for i := 1; i < len(opts); i++ {
		if opts[i].N != opts[i-1].N+1 {
			return false
		}
	}
	return true
}

// choiceDenies reports whether choosing o answers the prompt with a
// refusal. The choice is bound to the option's label, not its place: the
// manifest's deny answer names it, or its label opens with a word of
// refusal ("No", "No, and tell …", "Deny", "Reject", "Cancel", "Don't
// allow"). A label the manifest's approve answers name is an allow even
// if it also reads like a refusal. Anything unsure is an allow, so a
// risky prompt still needs its rules named: reading a "yes" as a "no"
// would press an unacknowledged allow.
func choiceDenies(p detect.Prompt, o detect.PromptOption) bool {
	if a := p.Answers; a != nil {
		for _, ap := range []*detect.Answer{a.Approve, a.ApproveAlways} {
			if ap != nil && ap.Option != "" {
				if m, ok := detect.OptionFor(p.Options, ap.Option); ok && m.N == o.N {
					return false
				}
			}
		}
		if a.Deny != nil && a.Deny.Option != "" {
			if m, ok := detect.OptionFor(p.Options, a.Deny.Option); ok && m.N == o.N {
				return true
			}
		}
	}
	return refusalLabel(o.Label)
}

// refusalLabel: the label's first words are a refusal. Words are split on
// anything not a letter or an apostrophe, so "No," and "No (esc)" count
// but "Now" and "Nothing to add" do not.
func refusalLabel(label string) bool {
	words := strings.FieldsFunc(strings.ToLower(label), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && r != '’'
	})
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "no", "deny", "reject", "decline", "cancel", "abort", "refuse", "disallow":
		return true
	case "don't", "don’t", "dont":
		return len(words) > 1 && (words[1] == "allow" || words[1] == "run" || words[1] == "proceed")
	case "do":
		return len(words) > 2 && words[1] == "not" && (words[2] == "allow" || words[2] == "run" || words[2] == "proceed")
	}
	return false
}
