package transcript_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tuios/tuios/detect/transcript"
)

// A Reader follows one transcript as the agent appends to it: a prompt is
// working, a subagent's records are skipped, a half-written last line
// waits for its newline, and the assistant's end_turn is done. Only the
// turn and the identity fields leave the reader, never the conversation.
func ExampleReader() {
	dir, err := os.MkdirTemp("", "transcript-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "s-1.jsonl")
	f, err := os.Create(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	r := transcript.NewReader(path)
	read := func(what, lines string) {
		f.WriteString(lines)
		obs, ok, err := r.Read()
		fmt.Printf("%-22s %-7s new=%v err=%v\n", what+":", obs.Turn, ok, err)
	}

	read("a prompt", `{"type":"user","sessionId":"s-1","message":{"content":"fix the tests"}}`+"\n")
	read("a subagent ends", `{"type":"assistant","isSidechain":true,"message":{"stop_reason":"end_turn"}}`+"\n")
	read("half of the last line", `{"type":"assistant","message":{"stop_reason":`)
	read("the rest of it", `"end_turn"}}`+"\n")
	// Output:
	// a prompt:              working new=true err=<nil>
	// a subagent ends:       none    new=false err=<nil>
	// half of the last line: none    new=false err=<nil>
	// the rest of it:        done    new=true err=<nil>
}

// ProjectName is the directory Claude Code keeps a folder's transcripts
// in, under ~/.claude/projects.
func ExampleProjectName() {
	fmt.Println(transcript.ProjectName("/home/u/my_project.v2"))
	// Output:
	// -home-u-my-project-v2
}
