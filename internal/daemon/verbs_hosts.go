package daemon

// hostVerbs are the verbs about this machine's links to other hosts.
func (s *Server) hostVerbs(add addFunc) {}
