package daemon

import drpc "github.com/tuios/tuios/internal/daemon/rpc"

// access is a verb's declaration (rpc.Access: who may call it, the
// grants a pane needs, the link capabilities, and what it does to a
// pane). The names below keep the verb table's lines short.
type access = drpc.Access

// Who may call a verb.
const (
	whoAnyone  = drpc.WhoAnyone
	whoGranted = drpc.WhoGranted
	whoSelf    = drpc.WhoSelf
	whoPerson  = drpc.WhoPerson
	whoOutside = drpc.WhoOutside
)

// What a verb does beyond who may call it.
const (
	typesInto    = drpc.TypesInto
	agentFeature = drpc.AgentFeature
	holdsConn    = drpc.HoldsConn
	marksRead    = drpc.MarksRead
	queuesInput  = drpc.QueuesInput
)

// The grants part of a declaration.
const (
	needRead    = drpc.NeedRead
	needWrite   = drpc.NeedWrite
	needFan     = drpc.NeedFan
	needRespond = drpc.NeedRespond
	needAdmin   = drpc.NeedAdmin
)

// The classes the verb table uses.
const (
	anyone      = drpc.Anyone
	reads       = drpc.Reads
	readsAll    = drpc.ReadsAll
	readsMail   = drpc.ReadsMail
	leavesMail  = drpc.LeavesMail
	writes      = drpc.Writes
	types       = drpc.Types
	reports     = drpc.Reports
	starts      = drpc.Starts
	opens       = drpc.Opens
	arranges    = drpc.Arranges
	administers = drpc.Administers
	personOnly  = drpc.PersonOnly
	outsideOnly = drpc.OutsideOnly
)
