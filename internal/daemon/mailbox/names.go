package mailbox

import (
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// send-agent-message answered message_id and to_name, read-agent-messages
// id and to_label, for the same things. Neither name can go (scripts read
// both), so each answer carries the other's name too: a script reads one
// spelling everywhere.

// readMessages adds the aliases to each message read
// (proto.MailMessage).
func readMessages(ms []mail.Message) []proto.MailMessage {
	out := make([]proto.MailMessage, len(ms))
	for i, m := range ms {
		out[i] = proto.MailMessage{Message: m, MessageID: m.ID, ToName: m.ToLabel}
	}
	return out
}
