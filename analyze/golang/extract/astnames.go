package extract

import (
	"go/ast"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/internal/goast"
)

// typeIdents are the identifiers of the type an expression spells,
// through pointers, parentheses and instantiation: *pkg.T[int] gives pkg
// and T, T[A] gives nil and T; anything else gives nil, nil.
func typeIdents(e ast.Expr) (qual, name *ast.Ident) {
	switch t := goast.BaseType(e).(type) {
	case *ast.SelectorExpr:
		if q, ok := t.X.(*ast.Ident); ok {
			return q, t.Sel
		}
	case *ast.Ident:
		return nil, t
	}
	return nil, nil
}

// embeddedIdent is the identifier that names an embedded field's type:
// T, *T, pkg.T, T[A] and *pkg.T[A, B] all give T.
func embeddedIdent(e ast.Expr) *ast.Ident {
	_, name := typeIdents(e)
	return name
}

// typeRefOf names the type an expression spells, through pointers,
// parentheses and instantiation: *pkg.T[int] gives {pkg T}.
func typeRefOf(e ast.Expr) TypeRef {
	qual, name := typeIdents(e)
	switch {
	case name == nil:
		return TypeRef{}
	case qual == nil:
		return TypeRef{Name: name.Name}
	}
	return TypeRef{Qual: qual.Name, Name: name.Name}
}

// funcArity is "params/results" of a function type, counting each name.
func funcArity(ft *ast.FuncType) string {
	return strconv.Itoa(fieldCount(ft.Params)) + "/" + strconv.Itoa(fieldCount(ft.Results))
}

func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			n++
		} else {
			n += len(f.Names)
		}
	}
	return n
}

// calleeIdent is the identifier a call expression calls: f, pkg.F, x.M,
// f[T] and (f) all give the final identifier.
func calleeIdent(e ast.Expr) *ast.Ident {
	switch t := goast.Uninstantiate(e).(type) {
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.Ident:
		return t
	}
	return nil
}

// testPrefixes are the prefixes of the functions go test runs.
var testPrefixes = [...]string{"Test", "Benchmark", "Fuzz", "Example"}

// isTestFunc reports whether name is a test, benchmark, fuzz test or
// example by the go test naming rule: the prefix alone, or followed by
// something other than a lower-case letter.
func isTestFunc(name string) bool {
	_, ok := testSubject(name)
	return ok
}

// testSubject returns what a test's name says it tests: "UserService_FindByEmail"
// for TestUserService_FindByEmail, "" for a bare Test.
func testSubject(name string) (string, bool) {
	for _, p := range testPrefixes {
		if !strings.HasPrefix(name, p) {
			continue
		}
		rest := name[len(p):]
		if rest == "" {
			return "", true
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLower(r) {
			return "", false
		}
		return strings.TrimPrefix(rest, "_"), true
	}
	return "", false
}
