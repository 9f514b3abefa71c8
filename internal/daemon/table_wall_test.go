package daemon

import (
	"go/ast"
	gotypes "go/types"
	"path/filepath"
	"sort"
	"testing"
)

// tableFiles are the files of the table: the sessions and windows, their
// placement and layout, popups, resolve, restore, the window verbs, the
// grants a window holds, and core.Host's reads of them (host_table.go).
// They are the only files that take s.mu or touch the tables it guards,
// and what becomes internal/daemon/mux; everything else (connections,
// dispatch, admission, attach streams, the features' adapter, config)
// asks through table.go's methods.
var tableFiles = map[string]bool{
	"host_table.go":         true,
	"layout.go":             true,
	"popup.go":              true,
	"resolve.go":            true,
	"restore.go":            true,
	"session.go":            true,
	"table.go":              true,
	"target.go":             true,
	"verbs_arrange.go":      true,
	"verbs_pane.go":         true,
	"verbs_session.go":      true,
	"verbs_session_meta.go": true,
	"verbs_window.go":       true,
	"window_grants.go":      true,
}

// windowFiles hold the rest of the table's code, which takes no lock of
// it: a window's automatic name and its current directory. With
// tableFiles they are what becomes internal/daemon/mux, and the only
// files that read a field of a Window or a Session: the rest of the
// package reads them through their methods.
var windowFiles = map[string]bool{
	"window_name.go": true,
	"pane_cwd.go":    true,
}

// tableFields are the Server fields only the table's files may use: the
// lock and what it guards.
var tableFields = map[string]bool{"mu": true, "sessions": true, "windows": true, "order": true, "closed": true}

// TestTableLockStaysInTheTable holds the wall around the table: outside
// tableFiles, no code of the package takes s.mu or reads the session and
// window maps, so nothing there can hold the table across a socket write
// or a pane read, and moving the table into its own package moves those
// files (and windowFiles) and nothing else. Inside them, no field of a
// connection is read: the table sees a call through the connection's
// methods; outside them, no field of a Window or a Session is: the rest
// of the package reads them through theirs.
func TestTableLockStaysInTheTable(t *testing.T) {
	t.Parallel()
	fset, files, info, pkg := typeCheckDir(t, ".")
	server, _ := pkg.Scope().Lookup("Server").(*gotypes.TypeName)
	if server == nil {
		t.Fatal("no Server type")
	}
	conn, _ := pkg.Scope().Lookup("conn").(*gotypes.TypeName)
	window, _ := pkg.Scope().Lookup("Window").(*gotypes.TypeName)
	session, _ := pkg.Scope().Lookup("Session").(*gotypes.TypeName)
	if conn == nil || window == nil || session == nil {
		t.Fatal("no conn, Window or Session type")
	}
	windowReads := 0 // of a Window or a Session, read inside: the walk finds them
	seen := map[string]bool{}
	connFields := 0 // read outside the table: the walk finds them
	var outside []string
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s := info.Selections[sel]
			if s == nil || s.Kind() != gotypes.FieldVal {
				return true
			}
			recv := s.Recv()
			if p, ok := recv.(*gotypes.Pointer); ok {
				recv = p.Elem()
			}
			nt, ok := recv.(*gotypes.Named)
			if ok && (nt.Obj() == window || nt.Obj() == session) && !sel.Sel.IsExported() {
				if !tableFiles[name] && !windowFiles[name] {
					t.Errorf("%s: %s.%s outside the table's files: read it through a method", fset.Position(sel.Pos()), nt.Obj().Name(), sel.Sel.Name)
				} else {
					windowReads++
				}
				return true
			}
			if ok && nt.Obj() == conn {
				// The table reads a call through the connection's
				// methods (admitted, setCaller, declared, placedWindow,
				// peerPID, Verb, Context), the seam the move to mux keeps.
				if tableFiles[name] {
					t.Errorf("%s: cn.%s in the table's files: read the call through the connection's methods", fset.Position(sel.Pos()), sel.Sel.Name)
				} else {
					connFields++
				}
				return true
			}
			if !ok || nt.Obj() != server || !tableFields[sel.Sel.Name] {
				return true
			}
			seen[sel.Sel.Name] = true
			if !tableFiles[name] {
				outside = append(outside, fset.Position(sel.Pos()).String()+": s."+sel.Sel.Name)
			}
			return true
		})
	}
	sort.Strings(outside)
	for _, o := range outside {
		t.Errorf("%s outside the table's files: ask through table.go", o)
	}
	if windowReads == 0 {
		t.Error("the walk saw no field of a Window or a Session read anywhere: it no longer finds them")
	}
	if connFields == 0 {
		t.Error("the walk saw no field of a connection read anywhere: it no longer finds them")
	}
	for f := range tableFields {
		if !seen[f] {
			t.Errorf("the walk saw no use of s.%s: it no longer finds the table's fields", f)
		}
	}
}
