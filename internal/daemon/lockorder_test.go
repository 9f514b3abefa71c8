package daemon

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// lockRanks is doc.go's lock order (# Locks) as ranks: a lock may be
// taken only while every lock held ranks lower. Leaves share the last
// rank, so a leaf taken under another leaf fails too. doc is the name
// doc.go gives the lock.
var lockRanks = map[string]struct {
	rank int
	doc  string
}{
	"attachStream.fmu":     {0, "attachStream.fmu"},
	"conn.cmu":             {leafRank + 1, "conn.cmu"},
	"cfgFollow.order":      {1, "cfgFollow.order"},
	"Server.editMu":        {2, "s.editMu"},
	"mux.Restorer.writing": {2, "mux.Restorer.writing"},
	"mux.Session.tileMu":   {3, "mux.Session.tileMu"},
	"mux.Table.mu":         {8, "mux.Table.mu"},
	"rpc.Hub.mu":           {10, "rpc.Hub.mu"},
	"attachHub.mu":         {11, "attachHub.mu"},

	"rpc.Subscriber.mu": {leafRank, "rpc.Subscriber.mu"},
	"attachStream.mu":   {leafRank, "attachStream.mu"},
	"conn.wmu":          {leafRank, "conn.wmu"},
	"cfgFollow.mu":      {leafRank, "cfgFollow.mu"},
	"humanNonces.mu":    {leafRank, "humanNonces.mu"},
	"mux.Restorer.mu":   {leafRank, "mux.Restorer.mu"},
	"reaper.mu":         {leafRank, "reaper.mu"},
	"paneIndex.mu":      {leafRank, "paneIndex.mu"},
	"connCount.mu":      {leafRank, "connCount.mu"},
	"Server.connMu":     {leafRank, "Server.connMu"},
	"railWake.mu":       {leafRank, "railWake.mu"},
	"escapeeList.mu":    {leafRank, "escapeeList.mu"},
	"mux.Window.nameMu": {leafRank, "mux.Window.nameMu"},
}

const leafRank = 13

// TestLockOrder walks every function of the package, type-checked, and
// finds each lock taken while another is held: directly, through the
// functions called (transitively), and through a closure handed to a
// function that runs it holding a lock (the attach hub's each). Every such nesting
// must follow doc.go's order, every mutex of the package must be in it,
// and doc.go must name each. What the walk cannot see (a call through a
// func value or an interface, a goroutine's locks) is doc.go's to state.
//
// The event hub is internal/daemon/rpc's: the walk reads that package
// first (rpcLocks), so a call into the hub takes rpc.Hub.mu here as a
// call of this package takes its locks.
func TestLockOrder(t *testing.T) {
	t.Parallel()
	hub := rpcLocks(t)
	g := checkLockOrder(t, ".", lockRanks, 5, hub, muxLocks(t, hub))
	into := false
	for _, e := range g.edges {
		into = into || e.taken == "mux.Table.mu"
	}
	if !into {
		t.Fatal("the walk found no lock held across a call into the table: it no longer follows calls into internal/daemon/mux")
	}
}

// rpcLockRanks is internal/daemon/rpc's own order (its doc.go, # Locks).
var rpcLockRanks = map[string]struct {
	rank int
	doc  string
}{
	"Hub.mu":        {1, "Hub.mu"},
	"Subscriber.mu": {leafRank, "Subscriber.mu"},
}

// TestRPCLockOrder walks internal/daemon/rpc as TestLockOrder walks the
// core: the hub's lock, then a subscriber's.
func TestRPCLockOrder(t *testing.T) {
	t.Parallel()
	checkLockOrder(t, "rpc", rpcLockRanks, 1)
}

// muxLockRanks is internal/daemon/mux's own order (its doc.go, # Locks):
// the table's lock and the locks around it, and the hub's under it.
var muxLockRanks = map[string]struct {
	rank int
	doc  string
}{
	"Restorer.writing":  {2, "Restorer.writing"},
	"Session.tileMu":    {3, "Session.tileMu"},
	"Table.mu":          {8, "Table.mu"},
	"rpc.Hub.mu":        {10, "rpc.Hub.mu"},
	"rpc.Subscriber.mu": {leafRank, "rpc.Subscriber.mu"},
	"Restorer.mu":       {leafRank, "Restorer.mu"},
	"Window.nameMu":     {leafRank, "Window.nameMu"},
}

// TestMuxLockOrder walks internal/daemon/mux, the table, as TestLockOrder
// walks the core, following its calls into the event hub.
func TestMuxLockOrder(t *testing.T) {
	t.Parallel()
	g := checkLockOrder(t, "mux", muxLockRanks, 2, rpcLocks(t))
	into := false
	for _, e := range g.edges {
		into = into || e.taken == "rpc.Hub.mu"
	}
	if !into {
		t.Fatal("the walk found no lock held across a call into the event hub: it no longer follows calls into internal/daemon/rpc")
	}
}

// muxLocks is what each function of internal/daemon/mux takes, for the
// core's walk: a call into the table takes mux.Table.mu here.
func muxLocks(t *testing.T, hub lockImport) lockImport {
	t.Helper()
	g := lockGraphOf(t, "mux", hub)
	if len(g.takes["Table.WindowByID"]) == 0 {
		t.Fatal("the walk of internal/daemon/mux finds no lock taken by Table.WindowByID")
	}
	return lockImport{path: "github.com/tuios/tuios/internal/daemon/mux", prefix: "mux.", g: g}
}

// prefixed names an imported walk's lock here: its own with the walk's
// prefix, one it imported itself (rpc.Hub.mu in the table's walk) as it
// was named there.
func prefixed(prefix, lock string) string {
	if strings.Count(lock, ".") > 1 {
		return lock
	}
	return prefix + lock
}

// rpcLocks is what each function of internal/daemon/rpc takes, for the
// core's walk.
func rpcLocks(t *testing.T) lockImport {
	t.Helper()
	g := lockGraphOf(t, "rpc")
	if len(g.takes["Hub.Publish"]) == 0 {
		t.Fatal("the walk of internal/daemon/rpc finds no lock taken by Hub.Publish")
	}
	return lockImport{path: "github.com/tuios/tuios/internal/daemon/rpc", prefix: "rpc.", g: g}
}

// lockImport is another package's walk, read by a walk of a package that
// calls it: a call of one of its functions takes what that function
// takes, its mutexes named prefix+Type.field.
type lockImport struct {
	path, prefix string
	g            lockGraph
}

// checkLockOrder walks the package in dir and checks its nestings against
// ranks, and that dir's doc.go names every lock of ranks under # Locks.
// A walk that finds fewer than minEdges nestings no longer reads it.
func checkLockOrder(t *testing.T, dir string, ranks map[string]struct {
	rank int
	doc  string
}, minEdges int, imports ...lockImport) lockGraph {
	g := lockGraphOf(t, dir, imports...)
	doc, err := os.ReadFile(filepath.Join(dir, "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	locks := string(doc)
	if i := strings.Index(locks, "# Locks"); i >= 0 {
		locks = locks[i:]
	}
	for name, r := range ranks {
		if !strings.Contains(locks, r.doc) {
			t.Errorf("doc.go's lock order does not name %s (%s)", r.doc, name)
		}
	}
	real := map[string]bool{}
	for _, m := range g.mutexes {
		real[m] = true
		if _, ok := ranks[m]; !ok {
			t.Errorf("the mutex %s is not in the lock order: add it to doc.go (# Locks) and lockRanks", m)
		}
	}
	for name := range ranks {
		if !real[name] {
			t.Errorf("lockRanks names %s, which is no mutex of the package (moved or gone): take it out here and in doc.go", name)
		}
	}
	for _, e := range g.edges {
		held, heldOK := ranks[e.held]
		taken, takenOK := ranks[e.taken]
		switch {
		case e.held == e.taken:
			t.Errorf("%s is taken again while held (%s)", e.held, e.where)
		case !heldOK || !takenOK:
			// a mutex outside the order: reported above
		case held.rank >= taken.rank:
			t.Errorf("%s is taken while %s is held (%s): doc.go's order has %s first", e.taken, e.held, e.where, ranks[e.taken].doc)
		}
	}
	if len(g.edges) < minEdges {
		t.Fatalf("the walk found %d nestings: it no longer reads the package", len(g.edges))
	}
	return g
}

// TestFeatureLocks walks the features whose locks are leaves the same
// way: the attention set's (the reply queue's, the review notes', the
// asks', the held approvals'), the mail feature's table of rings, the
// push notifications', the copies', the worktree records' and wait-for's exit log are
// leaves (the agent verbs have none)
// within their package, none taken while another of them is held, and
// doc.go's order names each as pkg.Type.field. What they may be held
// across (the core's calls, the Inbox's lock above them) the walk
// cannot see: doc.go and the packages' docs state it.
func TestFeatureLocks(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	locks := string(doc)
	if i := strings.Index(locks, "# Locks"); i >= 0 {
		locks = locks[i:]
	}
	// The features that keep no lock (the agent verbs): one that gets a
	// mutex has it named in doc.go's order as the others are.
	lockless := map[string]bool{"agents": true}
	for _, pkg := range []string{"attention", "mailbox", "notify", "transfers", "fan", "waitfor", "agents"} {
		g := lockGraphOf(t, pkg)
		if len(g.mutexes) == 0 && !lockless[pkg] {
			t.Errorf("the walk found no mutex in internal/daemon/%s", pkg)
		}
		for _, m := range g.mutexes {
			if !strings.Contains(locks, pkg+"."+m) {
				t.Errorf("doc.go's lock order does not name %s.%s", pkg, m)
			}
		}
		for _, e := range g.edges {
			t.Errorf("%s.%s is taken while %s.%s is held (%s): the feature's locks are leaves", pkg, e.taken, pkg, e.held, e.where)
		}
	}
}

// lockEdge is one lock taken while another is held.
type lockEdge struct {
	held, taken string
	where       string // file:line, and the call it went through
}

type lockGraph struct {
	mutexes []string // every mutex field: Type.field (an import's with its prefix)
	edges   []lockEdge
	// takes is what each function takes, through its calls, by
	// funcKey: another package's walk reads it (lockImport).
	takes map[string][]string
}

// lockWalk is one function's (or a closure's) locks.
type lockWalk struct {
	direct map[string]bool        // locks it takes itself
	calls  map[*gotypes.Func]bool // functions of the package it calls
	edges  []lockEdge             // its own nestings
	under  []lockedCall           // calls made with a lock held
}

type lockedCall struct {
	held  []string
	fn    *gotypes.Func
	where string
}

type lockWalker struct {
	fset *token.FileSet
	info *gotypes.Info
	// paramHeld[f][i] is what f holds when it calls its i-th parameter:
	// a closure passed there runs holding that.
	paramHeld map[*gotypes.Func]map[int][]string
	fn        *gotypes.Func
	params    map[gotypes.Object]int
	all       []*lockWalk
	// imports are the walks of other packages whose calls are followed;
	// extern is each such function called, with what it takes.
	imports []lockImport
	extern  map[*gotypes.Func][]string
}

func lockGraphOf(t *testing.T, dir string, imports ...lockImport) lockGraph {
	t.Helper()
	fset, files, info, pkg := typeCheckDir(t, dir)
	var g lockGraph
	for _, n := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(n).(*gotypes.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if st, ok := tn.Type().Underlying().(*gotypes.Struct); ok {
			for i := range st.NumFields() {
				if isMutexType(st.Field(i).Type()) {
					g.mutexes = append(g.mutexes, n+"."+st.Field(i).Name())
				}
			}
		}
	}
	for _, im := range imports {
		for _, m := range im.g.mutexes {
			if l := prefixed(im.prefix, m); !slices.Contains(g.mutexes, l) {
				g.mutexes = append(g.mutexes, l)
			}
		}
	}
	w := &lockWalker{fset: fset, info: info, paramHeld: map[*gotypes.Func]map[int][]string{}, imports: imports, extern: map[*gotypes.Func][]string{}}
	var fns map[*gotypes.Func]*lockWalk
	// Twice: the first pass learns which functions run their func
	// parameters holding a lock, the second uses it.
	for range 2 {
		fns = map[*gotypes.Func]*lockWalk{}
		w.all = nil
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				obj, _ := info.Defs[fd.Name].(*gotypes.Func)
				if obj == nil {
					continue
				}
				lw := w.newWalk()
				fns[obj] = lw
				w.fn, w.params = obj, map[gotypes.Object]int{}
				sig := obj.Type().(*gotypes.Signature)
				for i := range sig.Params().Len() {
					w.params[sig.Params().At(i)] = i
				}
				w.stmts(lw, fd.Body.List, nil)
			}
		}
	}
	// What each function takes, through its calls.
	takes := map[*gotypes.Func]map[string]bool{}
	for f, lw := range fns {
		takes[f] = map[string]bool{}
		for l := range lw.direct {
			takes[f][l] = true
		}
	}
	for f, ls := range w.extern {
		takes[f] = map[string]bool{}
		for _, l := range ls {
			takes[f][l] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for f, lw := range fns {
			for c := range lw.calls {
				for l := range takes[c] {
					if !takes[f][l] {
						takes[f][l], changed = true, true
					}
				}
			}
		}
	}
	g.takes = map[string][]string{}
	for f := range fns {
		for l := range takes[f] {
			g.takes[funcKey(f)] = append(g.takes[funcKey(f)], l)
		}
	}
	seen := map[[2]string]bool{}
	add := func(e lockEdge) {
		if k := [2]string{e.held, e.taken}; !seen[k] {
			seen[k] = true
			g.edges = append(g.edges, e)
		}
	}
	for _, lw := range w.all {
		for _, e := range lw.edges {
			add(e)
		}
		for _, hc := range lw.under {
			var ls []string
			for l := range takes[hc.fn] {
				ls = append(ls, l)
			}
			sort.Strings(ls)
			for _, l := range ls {
				for _, h := range hc.held {
					add(lockEdge{held: h, taken: l, where: hc.where + " via " + hc.fn.Name()})
				}
			}
		}
	}
	return g
}

func (w *lockWalker) newWalk() *lockWalk {
	lw := &lockWalk{direct: map[string]bool{}, calls: map[*gotypes.Func]bool{}}
	w.all = append(w.all, lw)
	return lw
}

func isMutexType(t gotypes.Type) bool {
	switch t.String() {
	case "sync.Mutex", "sync.RWMutex", "*sync.Mutex", "*sync.RWMutex":
		return true
	}
	return false
}

func (w *lockWalker) pos(n ast.Node) string {
	p := w.fset.Position(n.Pos())
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// lockOp says what call does to a mutex field: "Lock" or "Unlock" (the
// read forms count as these) and the mutex as Type.field; "" for a call
// that is no lock operation on a field.
func (w *lockWalker) lockOp(call *ast.CallExpr) (op, name string) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	switch sel.Sel.Name {
	case "Lock", "RLock":
		op = "Lock"
	case "Unlock", "RUnlock":
		op = "Unlock"
	default:
		return "", ""
	}
	tv, ok := w.info.Types[sel.X]
	if !ok || !isMutexType(tv.Type) {
		return "", ""
	}
	field, ok := sel.X.(*ast.SelectorExpr)
	if !ok {
		return "", "" // a local mutex: its function's own
	}
	s := w.info.Selections[field]
	if s == nil {
		return "", ""
	}
	recv := s.Recv()
	if p, ok := recv.(*gotypes.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*gotypes.Named)
	if !ok {
		return "", ""
	}
	return op, named.Obj().Name() + "." + field.Sel.Name
}

func (w *lockWalker) stmts(lw *lockWalk, list []ast.Stmt, held []string) []string {
	for _, st := range list {
		held = w.stmt(lw, st, held)
	}
	return held
}

func (w *lockWalker) stmt(lw *lockWalk, st ast.Stmt, held []string) []string {
	switch s := st.(type) {
	case *ast.DeferStmt:
		if op, _ := w.lockOp(s.Call); op != "" {
			return held // a deferred unlock: held to the end
		}
		w.exprs(lw, s.Call, held)
	case *ast.GoStmt:
		// A goroutine holds nothing, and its locks are not its starter's.
		if fl, ok := s.Call.Fun.(*ast.FuncLit); ok {
			w.stmts(w.newWalk(), fl.Body.List, nil)
		} else {
			w.exprs(w.newWalk(), s.Call, nil)
		}
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			switch op, name := w.lockOp(call); op {
			case "Lock":
				lw.direct[name] = true
				for _, h := range held {
					lw.edges = append(lw.edges, lockEdge{held: h, taken: name, where: w.pos(call)})
				}
				return append(append([]string(nil), held...), name)
			case "Unlock":
				out := append([]string(nil), held...)
				for i := len(out) - 1; i >= 0; i-- {
					if out[i] == name {
						return append(out[:i], out[i+1:]...)
					}
				}
				return out
			}
		}
		w.exprs(lw, s.X, held)
	case *ast.BlockStmt:
		w.stmts(lw, s.List, held)
	case *ast.IfStmt:
		if s.Init != nil {
			held = w.stmt(lw, s.Init, held)
		}
		w.exprs(lw, s.Cond, held)
		after := w.stmts(lw, s.Body.List, held)
		if s.Else != nil {
			w.stmt(lw, s.Else, held)
		}
		// A branch that unlocks and goes on (not one that returns) leaves
		// the lock let go after the if.
		if n := len(s.Body.List); n > 0 {
			switch s.Body.List[n-1].(type) {
			case *ast.ReturnStmt, *ast.BranchStmt:
				return held
			}
		}
		return after
	case *ast.ForStmt:
		if s.Init != nil {
			w.stmt(lw, s.Init, held)
		}
		if s.Cond != nil {
			w.exprs(lw, s.Cond, held)
		}
		w.stmts(lw, s.Body.List, held)
	case *ast.RangeStmt:
		w.exprs(lw, s.X, held)
		w.stmts(lw, s.Body.List, held)
	case *ast.SwitchStmt:
		if s.Init != nil {
			held = w.stmt(lw, s.Init, held)
		}
		if s.Tag != nil {
			w.exprs(lw, s.Tag, held)
		}
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			for _, e := range cc.List {
				w.exprs(lw, e, held)
			}
			w.stmts(lw, cc.Body, held)
		}
	case *ast.TypeSwitchStmt:
		for _, c := range s.Body.List {
			w.stmts(lw, c.(*ast.CaseClause).Body, held)
		}
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			w.stmts(lw, c.(*ast.CommClause).Body, held)
		}
	case *ast.LabeledStmt:
		return w.stmt(lw, s.Stmt, held)
	default:
		w.exprs(lw, st, held)
	}
	return held
}

// exprs records the calls in n. A closure passed straight to a call runs
// then, holding what its caller holds and what the callee holds when it
// calls that parameter; a timer's (AfterFunc) or a stored one runs later
// holding nothing, and its locks are its own.
func (w *lockWalker) exprs(lw *lockWalk, n ast.Node, held []string) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			w.stmts(w.newWalk(), x.Body.List, nil)
			return false
		case *ast.CallExpr:
			callee := w.record(lw, x, held)
			later := false
			switch f := x.Fun.(type) {
			case *ast.SelectorExpr:
				later = strings.Contains(f.Sel.Name, "AfterFunc")
			case *ast.Ident:
				later = strings.Contains(f.Name, "AfterFunc")
			}
			for i, a := range x.Args {
				fl, ok := a.(*ast.FuncLit)
				switch {
				case !ok:
					w.exprs(lw, a, held)
				case later:
					w.stmts(w.newWalk(), fl.Body.List, nil)
				default:
					h := append([]string(nil), held...)
					if callee != nil {
						h = append(h, w.paramHeld[callee][i]...)
					}
					w.stmts(lw, fl.Body.List, h)
				}
			}
			if fl, ok := x.Fun.(*ast.FuncLit); ok { // func(){…}()
				w.stmts(lw, fl.Body.List, held)
			} else {
				w.exprs(lw, x.Fun, held)
			}
			return false
		}
		return true
	})
}

// record notes a call: of a function of the package (what it takes is
// taken here), or of the function's own func parameter (what is held
// then is what a closure passed for it runs under).
func (w *lockWalker) record(lw *lockWalk, call *ast.CallExpr, held []string) *gotypes.Func {
	var obj gotypes.Object
	switch f := call.Fun.(type) {
	case *ast.Ident:
		obj = w.info.Uses[f]
		if i, ok := w.params[obj]; ok && len(held) > 0 {
			if w.paramHeld[w.fn] == nil {
				w.paramHeld[w.fn] = map[int][]string{}
			}
			w.paramHeld[w.fn][i] = append(w.paramHeld[w.fn][i], held...)
		}
	case *ast.SelectorExpr:
		obj = w.info.Uses[f.Sel]
	}
	fn, ok := obj.(*gotypes.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg().Path() != "daemon" {
		if !w.importedCall(fn) {
			return nil
		}
	}
	lw.calls[fn] = true
	if len(held) > 0 {
		lw.under = append(lw.under, lockedCall{held: append([]string(nil), held...), fn: fn, where: w.pos(call)})
	}
	return fn
}

// importedCall says whether fn is a function of an imported walk, and
// notes what it takes.
func (w *lockWalker) importedCall(fn *gotypes.Func) bool {
	for _, im := range w.imports {
		if fn.Pkg().Path() != im.path {
			continue
		}
		if _, ok := w.extern[fn]; !ok {
			var ls []string
			for _, l := range im.g.takes[funcKey(fn)] {
				ls = append(ls, prefixed(im.prefix, l))
			}
			w.extern[fn] = ls
		}
		return true
	}
	return false
}

// funcKey names a function as Recv.Method, or Func: the same in the
// package's own walk and in a walk of a package that imports it.
func funcKey(fn *gotypes.Func) string {
	recv := fn.Type().(*gotypes.Signature).Recv()
	if recv == nil {
		return fn.Name()
	}
	t := recv.Type()
	if p, ok := t.(*gotypes.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*gotypes.Named); ok {
		return n.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// exportImporter imports dir's dependencies from the export data the go
// command compiled for them (go list -export, out of the build cache), not
// from source: type-checking every dependency from source, the standard
// library's included, took most of this test's time.
func exportImporter(t *testing.T, fset *token.FileSet, dir string) gotypes.Importer {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool on PATH to compile the dependencies")
	}
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	export := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			export[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("go list gave no export data for %s", path)
		}
		return os.Open(file)
	})
}

// typeCheckDir parses the package in dir (its files for this platform,
// tests left out) and type-checks it against its dependencies' export
// data; it skips t where the package does not type-check from source.
func typeCheckDir(t *testing.T, dir string) (*token.FileSet, []*ast.File, *gotypes.Info, *gotypes.Package) {
	t.Helper()
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, _ := build.Default.MatchFile(dir, n); !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &gotypes.Info{Types: map[ast.Expr]gotypes.TypeAndValue{}, Uses: map[*ast.Ident]gotypes.Object{},
		Defs: map[*ast.Ident]gotypes.Object{}, Selections: map[*ast.SelectorExpr]*gotypes.Selection{}}
	conf := gotypes.Config{Importer: exportImporter(t, fset, dir)}
	pkg, err := conf.Check("daemon", fset, files, info)
	if err != nil {
		t.Skipf("the package does not type-check from source here: %v", err)
	}
	return fset, files, info, pkg
}
