package daemon

// linkVerbs are the verbs another machine's link uses here.
func (s *Server) linkVerbs(add addFunc) {}
