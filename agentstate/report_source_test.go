package agentstate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every Report literal in the module names its source: the zero Source is
// SourceNone, which the arbiter refuses, so a literal that leaves it out
// (as code written when the zero meant the agent's own report did) would
// be dropped without a word. Elided literals in slices and maps of Reports
// count too; Report{}, no report at all, does not.
func TestEveryReportLiteralNamesItsSource(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole module")
	}
	fset := token.NewFileSet()
	var missing []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || (strings.HasPrefix(n, ".") && n != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // not ours to judge here
		}
		inPkg := f.Name.Name == "agentstate"
		isReport := func(e ast.Expr) bool {
			switch t := e.(type) {
			case *ast.Ident:
				return inPkg && t.Name == "Report"
			case *ast.SelectorExpr:
				x, ok := t.X.(*ast.Ident)
				return ok && t.Sel.Name == "Report" && (x.Name == "agentstate" || x.Name == "as")
			}
			return false
		}
		check := func(cl *ast.CompositeLit) {
			if len(cl.Elts) == 0 {
				return // Report{}: no report at all
			}
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Source" {
						return
					}
				}
			}
			missing = append(missing, fset.Position(cl.Pos()).String())
		}
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var elt ast.Expr
			switch t := cl.Type.(type) {
			case *ast.ArrayType:
				elt = t.Elt
			case *ast.MapType:
				elt = t.Value
			}
			if elt != nil && isReport(elt) {
				for _, e := range cl.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						e = kv.Value
					}
					if c, ok := e.(*ast.CompositeLit); ok && c.Type == nil {
						check(c)
					}
				}
			}
			if cl.Type != nil && isReport(cl.Type) {
				check(cl)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s: a Report without a Source (SourceNone is refused)", m)
	}
}
