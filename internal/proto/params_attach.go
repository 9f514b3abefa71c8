package proto

// AttachInputParams are the params of attach-input.
type AttachInputParams struct {
	Session string `json:"session,omitempty" desc:"the attached session"`
	Window  string `json:"window,omitempty" req:"true" desc:"the session's focused window, whose input the client takes"`
}

// AttachTypedParams are the params of attach-typed.
type AttachTypedParams struct {
	Session string `json:"session,omitempty" desc:"the attached session"`
	Window  string `json:"window,omitempty" req:"true" desc:"the window the client typed into through its passed input"`
}

// ResizeParams are the params of resize.
type ResizeParams struct {
	Session string `json:"session,omitempty" desc:"the session (default: most recently active)" maxlen:"4096"`
	Cols    int    `json:"cols,omitempty" req:"true" desc:"the area's width in cells" min:"1" max:"1000"`
	Rows    int    `json:"rows,omitempty" req:"true" desc:"the area's height in cells, title bars included" min:"1" max:"1000"`
}
