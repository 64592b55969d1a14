// Package goast owns the small facts about Go syntax trees that several
// packages need and none should import another for: what type or function
// an expression names once pointers, parentheses and instantiation are
// looked through. It depends on go/ast alone, so any package may import
// it (bundle and diffmode among them) without pulling in the analysers.
package goast

import "go/ast"

// Uninstantiate looks through parentheses and instantiation: (f), f[T]
// and T[K, V] give f and T. Anything else is returned as it is.
func Uninstantiate(e ast.Expr) ast.Expr {
	for {
		switch t := e.(type) {
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return e
		}
	}
}

// BaseType is the type a type expression is built on, through pointers,
// parentheses and instantiation: the receivers T, *T, (*T), T[K] and
// *T[K, V] all give the identifier T, and *pkg.T[int] gives the selector
// pkg.T. What is left is usually an *ast.Ident or an *ast.SelectorExpr;
// the caller decides what anything else means.
func BaseType(e ast.Expr) ast.Expr {
	for {
		e = Uninstantiate(e)
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return e
		}
		e = star.X
	}
}
