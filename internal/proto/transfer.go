package proto

// Transfer is one copy the daemon runs (tuios cp, tuios transfers).
type Transfer struct {
	ID        string `json:"id"`
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	Recursive bool   `json:"recursive"`
	State     string `json:"state"` // running, paused, done, failed, cancelled
	Error     string `json:"error,omitempty"`
	Bytes     int64  `json:"bytes"`
	Total     int64  `json:"total"`
	Files     int    `json:"files"`
	// BWLimit is the cap in bytes a second (0: none).
	BWLimit int64 `json:"bwlimit,omitempty"`
	// StartedBy is the pane id of the pane that started it, "person", or
	// "unplaced" for a process inside TUIOS in no pane it can name.
	StartedBy string `json:"started_by"`
	Started   int64  `json:"started"` // unix ms
	Ended     int64  `json:"ended,omitempty"`
}

// TransferList is the result of list-transfers and of the verbs that act
// on copies (pause-, resume-, cancel- and wait-transfers): the copies
// the caller sees, oldest first.
type TransferList struct {
	Type      string     `json:"type"` // transfer_list
	Transfers []Transfer `json:"transfers"`
	MaxKept   int        `json:"max_kept,omitempty"` // list-transfers only
}

// TransferStarted is copy's result: the copy it started (and tuios cp
// --json's output, with the copy as it ended).
type TransferStarted struct {
	Type     string   `json:"type"` // transfer
	Transfer Transfer `json:"transfer"`
}

// TransfersCleared is clear-transfers' result: how many finished copies
// were dropped.
type TransfersCleared struct {
	Type    string `json:"type"` // transfers_cleared
	Cleared int    `json:"cleared"`
}
