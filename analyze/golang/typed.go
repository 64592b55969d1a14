package golang

import (
	"fmt"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
)

// extractTyped turns a type-checked package into a result. A panic while
// extracting (a defect, never expected) costs the package its edges but
// not the load.
func (l *loader) extractTyped(fset *token.FileSet, n *node, repo map[string]bool) (res *extract.Result) {
	var files []*parsedFile
	for _, pf := range n.parsed() {
		if _, ok := n.assigned[pf.abs]; ok && (n.partial == nil || n.partial.only[pf.abs]) {
			files = append(files, pf)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	dir := "."
	if len(files) > 0 {
		dir = path.Dir(files[0].rel)
	} else if d, ok := l.relDir(n.pkg.Dir); ok {
		dir = d
	}
	name := n.pkg.Name
	if name == "" && len(files) > 0 {
		name = files[0].ast.Name.Name
	}
	res = &extract.Result{Scope: extract.ScopeKey(dir, name), ImportPath: n.pkg.PkgPath, PkgName: name, Dir: dir}
	if n.tpkg == nil || n.info == nil {
		// The checker gave up on the package: the caller hands its files
		// to the syntax-only path.
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			if debugPanics {
				panic(r)
			}
			res.Edges, res.Raws, res.MethodSets = nil, nil, nil
			res.Problems = append(res.Problems, analyze.Problem{Kind: analyze.ProblemLoad, Path: dir,
				Msg: fmt.Sprintf("internal error extracting package %s: %v; its edges are missing", n.pkg.PkgPath, r)})
		}
	}()
	x := extract.NewExtractor(res, fset)
	x.Info = n.info
	x.Hybrid = len(n.typeErrs) > 0 || (n.partial != nil && n.partial.hybrid)
	relCache := make(map[string]string)
	x.RelOf = func(filename string) (string, bool) {
		if r, ok := relCache[filename]; ok {
			return r, r != ""
		}
		r, _ := l.relOf(filename)
		relCache[filename] = r
		return r, r != ""
	}
	x.RepoPkg = func(p string) bool { return repo[p] }
	for _, pf := range files {
		f := extract.FileFacts(pf.rel, pf.orig)
		l.opt.source(f, pf.orig)
		f.Package = n.pkg.PkgPath
		f.PkgName = pf.ast.Name.Name
		f.Errors = len(pf.errs)
		imports := x.ExtractFile(pf.rel, pf.ast, pf.src)
		res.Files = append(res.Files, extract.FileRec{File: f, Imports: imports})
		x.TypedMethodSets(pf.ast)
		res.Problems = append(res.Problems, syntaxProblems(pf.rel, pf.errs)...)
	}
	res.Problems = append(res.Problems, l.typeProblems(fset, n, dir)...)
	if missing := missingImports(n); len(missing) > 0 {
		res.Problems = append(res.Problems, analyze.Problem{Kind: analyze.ProblemDegraded, Path: dir,
			Msg: missingPrefix + strings.Join(missing, ", ") + "; names from them are unresolved and the type information is partial"})
	}
	return res
}

// missingPrefix starts the problem naming a package's missing imports.
const missingPrefix = "missing dependencies "

// quietError reports whether a type error is a consequence of a missing
// package, which go list's own error reports.
func quietError(n *node, te types.Error) bool {
	return strings.HasPrefix(te.Msg, "could not import ") || (n.tainted > 0 && consequence().MatchString(te.Msg))
}

// typeProblems reports up to maxTypeErrors type errors in the package's
// extracted files, and how many more there were.
func (l *loader) typeProblems(fset *token.FileSet, n *node, dir string) []analyze.Problem {
	var out []analyze.Problem
	extra := 0
	for _, te := range n.typeErrs {
		if quietError(n, te) {
			continue // a consequence of a missing package, reported by go list
		}
		p := analyze.Problem{Kind: analyze.ProblemType, Path: dir, Msg: analyze.ToValidUTF8(te.Msg)}
		if te.Pos.IsValid() {
			pos := fset.PositionFor(te.Pos, false)
			rel, ok := n.assigned[pos.Filename]
			if !ok {
				continue
			}
			p.Path, p.Line = rel, pos.Line
		}
		if len(out) == maxTypeErrors {
			extra++
			continue
		}
		out = append(out, p)
	}
	if extra > 0 {
		out = append(out, analyze.Problem{Kind: analyze.ProblemType, Path: dir,
			Msg: fmt.Sprintf("%d more type errors in package %s", extra, n.pkg.PkgPath)})
	}
	return out
}

// syntaxProblems reports up to maxSyntaxErrors syntax errors of a file,
// and how many more there were.
func syntaxProblems(rel string, errs scanner.ErrorList) []analyze.Problem {
	var out []analyze.Problem
	for i, e := range errs {
		if i == maxSyntaxErrors {
			out = append(out, analyze.Problem{Kind: analyze.ProblemSyntax, Path: rel,
				Msg: fmt.Sprintf("%d more syntax errors", len(errs)-maxSyntaxErrors)})
			break
		}
		out = append(out, analyze.Problem{Kind: analyze.ProblemSyntax, Path: rel, Line: e.Pos.Line, Msg: analyze.ToValidUTF8(e.Msg)})
	}
	return out
}

// missingImports lists the imports of a package that go list could not
// provide.
func missingImports(n *node) []string {
	var out []string
	for path := range n.pkg.Imports {
		d := n.imports[path]
		if d == nil || len(d.goFiles) == 0 {
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out
}

// debugPanics re-raises extraction panics; tests set it to see the stack.
var debugPanics = false

// consequence matches the type errors a missing package causes downstream:
// a name missing from the empty stand-in, or a field or method that would
// have been promoted from one of its types.
// Compiled on first use: its Unicode classes cost every process about
// 1 to 2 ms at start otherwise.
var consequence = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^undefined: [\pL_][\pL\pN_]*\.[\pL_][\pL\pN_]*$|has no field or method`)
})
