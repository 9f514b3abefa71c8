package proto

// The params of the copies' verbs (tuios cp, tuios transfers; served by
// internal/daemon/transfers). Their tags are the verbs' schema
// (DecodeParams, Validate, Schema).

// CopyParams are copy's params.
type CopyParams struct {
	Src       string `json:"src" desc:"the file or folder to copy: an absolute path on this machine (HOST:PATH on a linked host is refused not_supported in this version)" req:"true" maxlen:"4096"`
	Dst       string `json:"dst" desc:"where to copy it: an absolute path; an existing folder receives the source under its own name" req:"true" maxlen:"4096"`
	Recursive bool   `json:"recursive" desc:"copy a folder and everything in it (symlinks inside are copied as links, never followed)"`
	BWLimit   int64  `json:"bwlimit" desc:"at most this many bytes a second (0: as fast as it goes)" min:"0" max:"1099511627776"`
}

// TransferIDsParams name copies: the params of pause-, resume-, cancel-
// and clear-transfers.
type TransferIDsParams struct {
	IDs []string `json:"ids" desc:"the transfers (t1, t2, …); none: every one the caller sees" maxlen:"256"`
}

// TransferWaitParams are wait-transfers' params.
type TransferWaitParams struct {
	IDs     []string `json:"ids" desc:"the transfers to wait for; none: every one the caller sees" maxlen:"256"`
	Timeout int      `json:"timeout" desc:"milliseconds before giving up" min:"1" max:"86400000" default:"86400000"`
}
