package proto

// CopyParams are the params of copy.
type CopyParams struct {
	Src       string `json:"src,omitempty" desc:"the file or folder to copy: an absolute path on this machine (HOST:PATH on a linked host is refused not_supported in this version)" req:"true" maxlen:"4096"`
	Dst       string `json:"dst,omitempty" desc:"where to copy it: an absolute path; an existing folder receives the source under its own name" req:"true" maxlen:"4096"`
	Recursive bool   `json:"recursive,omitempty" desc:"copy a folder and everything in it (symlinks inside are copied as links, never followed)"`
	BWLimit   int64  `json:"bwlimit,omitempty" desc:"at most this many bytes a second (0: as fast as it goes)" min:"0" max:"1099511627776"`
}

// TransferIDsParams are the params of cancel-transfers, clear-transfers, pause-transfers and resume-transfers.
type TransferIDsParams struct {
	IDs []string `json:"ids,omitempty" desc:"the transfers (t1, t2, …); none: every one the caller sees" maxlen:"256"`
}

// TransferWaitParams are the params of wait-transfers.
type TransferWaitParams struct {
	IDs     []string `json:"ids,omitempty" desc:"the transfers to wait for; none: every one the caller sees" maxlen:"256"`
	Timeout int      `json:"timeout,omitempty" desc:"milliseconds before giving up" min:"1" max:"86400000" default:"86400000"`
}
