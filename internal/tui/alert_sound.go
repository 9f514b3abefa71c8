package tui

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tuios/tuios/internal/atomicfile"
)

// The audio cue of sound_mode audio or both: a short sound played by the
// machine's audio player (paplay, pw-play or aplay on Linux, afplay on
// macOS, PowerShell on Windows). Without any of them the alert is silent
// and nothing is shown, as the agents page says. At most one cue plays
// every AlertRules.Cooldown, across all panes.

// cueLimit bounds one run of the audio player.
const cueLimit = 5 * time.Second

// cueMsg reports how a cue ended: the player used ("" when there is
// none) and its error.
type cueMsg struct {
	player string
	err    error
}

// cue plays the cue for state unless one played within the cooldown.
func (m *Model) cue(state string) tea.Cmd {
	now := m.clock.Now()
	if !m.alertRun.lastCue.IsZero() && now.Sub(m.alertRun.lastCue) < m.opt.Alert.Cooldown {
		return nil
	}
	m.alertRun.lastCue = now
	file := m.opt.Alert.Sounds[state]
	if file == "" {
		file = m.opt.Alert.Sounds["default"]
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), cueLimit)
		defer cancel()
		player, err := playCue(ctx, file)
		return cueMsg{player: player, err: err}
	}
}

// playCue plays file (the built-in cue when "") with the first audio
// player on PATH, and says which one; "" and no error when there is none.
func playCue(ctx context.Context, file string) (string, error) {
	name, args := audioPlayer()
	if name == "" {
		return "", nil
	}
	if file == "" {
		var err error
		if file, err = builtinCue(); err != nil {
			return name, err
		}
	}
	if runtime.GOOS == "windows" {
		args = append(args, "(New-Object Media.SoundPlayer '"+file+"').PlaySync()")
	} else {
		args = append(args, file)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return name, cmd.Run()
}

// audioPlayer is the first audio player found on PATH for this system,
// and the arguments that go before the file.
func audioPlayer() (string, []string) {
	var players [][]string
	switch runtime.GOOS {
	case "darwin":
		players = [][]string{{"afplay"}}
	case "windows":
		players = [][]string{{"powershell", "-NoProfile", "-Command"}}
	default:
		players = [][]string{{"paplay"}, {"pw-play"}, {"aplay", "-q"}}
	}
	for _, p := range players {
		if path, err := exec.LookPath(p[0]); err == nil {
			return path, p[1:]
		}
	}
	return "", nil
}

// builtinCue writes the built-in cue into the user's cache directory
// (once: an existing file with the same bytes is kept) and returns its
// path.
func builtinCue() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "tuios")
	path := filepath.Join(dir, "alert-cue.wav")
	want := cueWAV()
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, want) {
		return path, nil
	}
	if err := atomicfile.WriteFile(path, want, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700}); err != nil {
		return "", err
	}
	return path, nil
}

// cueWAV is the built-in cue: two short soft tones, 16-bit mono PCM.
func cueWAV() []byte {
	const rate = 22050
	var pcm []int16
	for _, tone := range []struct{ hz, ms float64 }{{880, 90}, {1320, 120}} {
		n := int(rate * tone.ms / 1000)
		for i := range n {
			// A short fade in and out keeps the tone from clicking.
			env := math.Min(1, math.Min(float64(i), float64(n-i))/(rate*0.01))
			pcm = append(pcm, int16(9000*env*math.Sin(2*math.Pi*tone.hz*float64(i)/rate)))
		}
	}
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	size := uint32(len(pcm) * 2)
	b.WriteString("RIFF")
	le(36 + size)
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1)) // PCM
	le(uint16(1)) // mono
	le(uint32(rate))
	le(uint32(rate * 2))
	le(uint16(2))
	le(uint16(16))
	b.WriteString("data")
	le(size)
	le(pcm)
	return b.Bytes()
}
