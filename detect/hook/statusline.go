package hook

import (
	"encoding/json"
	"strconv"
)

// StatusLine is what Claude Code hands its status line command (one JSON
// object on stdin, on every redraw of the line; read in Claude Code
// 2.1.197: model, cost, context_window), kept as the agent metadata tuios
// shows beside the state.
type StatusLine struct {
	SessionID string
	Meta      map[string]string // model, context (percent used), cost (USD)
}

// DecodeStatusLine reads a status line payload.
func DecodeStatusLine(stdin []byte) (StatusLine, error) {
	if len(stdin) > MaxPayload {
		return StatusLine{}, &Error{code: CodeTooLarge, Harness: "claude-code"}
	}
	var p struct {
		SessionID string `json:"session_id"`
		Model     struct {
			ID          string `json:"id"`
			DisplayName string `json:"display_name"`
		} `json:"model"`
		Cost struct {
			TotalCostUSD *float64 `json:"total_cost_usd"`
		} `json:"cost"`
		ContextWindow struct {
			UsedPercentage *float64 `json:"used_percentage"`
		} `json:"context_window"`
	}
	if err := json.Unmarshal(stdin, &p); err != nil {
		return StatusLine{}, &Error{code: CodeBadPayload, Harness: "claude-code", Detail: "not one JSON object on stdin"}
	}
	s := StatusLine{SessionID: clip(p.SessionID, 256), Meta: map[string]string{}}
	if m := flat(firstNonEmpty(p.Model.DisplayName, p.Model.ID)); m != "" {
		s.Meta["model"] = clip(m, 80)
	}
	if c := p.ContextWindow.UsedPercentage; c != nil && *c >= 0 && *c <= 100 {
		s.Meta["context"] = strconv.FormatFloat(*c, 'f', 0, 64) + "%"
	}
	if c := p.Cost.TotalCostUSD; c != nil && *c >= 0 && *c < 1e9 {
		s.Meta["cost"] = "$" + strconv.FormatFloat(*c, 'f', 2, 64)
	}
	return s, nil
}

// Line is the status line tuios prints when it chains to nothing.
func (s StatusLine) Line() string {
	out := ""
	for _, k := range []string{"model", "context", "cost"} {
		if v := s.Meta[k]; v != "" {
			if out != "" {
				out += " · "
			}
			out += v
		}
	}
	return out
}
