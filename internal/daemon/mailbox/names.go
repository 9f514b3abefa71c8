package mailbox

import "github.com/tuios/tuios/mail"

// send-agent-message answered message_id and to_name, read-agent-messages
// id and to_label, for the same things. Neither name can go (scripts read
// both), so each answer carries the other's name too: a script reads one
// spelling everywhere.

// readMessage is a message as read-agent-messages returns it: every field
// of mail.Message plus send-agent-message's names for its id and inbox
// label.
type readMessage struct {
	mail.Message
	MessageID uint64 `json:"message_id"` // = id
	ToName    string `json:"to_name"`    // = to_label
}

// readMessages adds the aliases to each message read.
func readMessages(ms []mail.Message) []readMessage {
	out := make([]readMessage, len(ms))
	for i, m := range ms {
		out[i] = readMessage{Message: m, MessageID: m.ID, ToName: m.ToLabel}
	}
	return out
}
