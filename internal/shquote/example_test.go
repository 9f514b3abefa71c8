package shquote_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/shquote"
)

func ExampleWord() {
	fmt.Println(shquote.Word("posix", "plain-word"))
	fmt.Println(shquote.Word("posix", "it's"))
	fmt.Println(shquote.Word("fish", "it's"))
	// Output:
	// plain-word
	// 'it'\''s'
	// 'it\'s'
}
