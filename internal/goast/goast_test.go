package goast

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// show writes the identifier or selector an expression comes down to.
func show(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			return x.Name + "." + t.Sel.Name
		}
		return "?." + t.Sel.Name
	case *ast.StarExpr:
		return "*" + show(t.X)
	case *ast.IndexExpr:
		return show(t.X) + "[…]"
	case nil:
		return "nil"
	}
	return "other"
}

func TestBaseTypeReceivers(t *testing.T) {
	src := `package p
func (T) A() {}
func (t *T) B() {}
func (t (*T)) C() {}
func (t T[K]) D() {}
func (t *T[K, V]) E() {}
func (t *(T[K])) F() {}
func (t **T) G() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		if got := show(BaseType(fd.Recv.List[0].Type)); got != "T" {
			t.Errorf("receiver of %s: %s, want T", fd.Name.Name, got)
		}
	}
}

func TestExpressions(t *testing.T) {
	for _, tt := range []struct {
		expr, base, uninst string
	}{
		{"pkg.T", "pkg.T", "pkg.T"},
		{"*pkg.T[int]", "pkg.T", "*pkg.T[…]"},
		{"(f)", "f", "f"},
		{"f[int]", "f", "f"},
		{"(*f)", "f", "*f"},
		{"[]T", "other", "other"},
		{"a.b.C", "?.C", "?.C"},
	} {
		e, err := parser.ParseExpr(tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		if got := show(BaseType(e)); got != tt.base {
			t.Errorf("BaseType(%s) = %s, want %s", tt.expr, got, tt.base)
		}
		if got := show(Uninstantiate(e)); got != tt.uninst {
			t.Errorf("Uninstantiate(%s) = %s, want %s", tt.expr, got, tt.uninst)
		}
	}
}
