package golang

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/sourcegraph/conc/iter"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
)

// syntaxFile is a file read for syntax-only analysis.
type syntaxFile struct {
	rel  string
	orig []byte // as on disk
	src  []byte // as parsed
	ast  *ast.File
	errs scanner.ErrorList
}

// syntaxUnit is the files of one directory that declare the same package.
type syntaxUnit struct {
	dir, pkgName string
	files        []*syntaxFile
}

// loadSyntax analyses files from syntax alone: those go list could not
// load, those build constraints exclude, and everything when no typed load
// was possible. Files are parsed in parallel, grouped by directory and
// package clause, and each group is extracted as one package.
func (l *loader) loadSyntax(rels []string) {
	fset := token.NewFileSet()
	maxSize := l.opt.maxFileSize()
	mapper := iter.Mapper[string, *syntaxFile]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	parsed := mapper.Map(rels, func(rel *string) *syntaxFile {
		if l.ctx.Err() != nil {
			return nil
		}
		src, err := analyze.ReadSource(l.root, *rel, maxSize)
		if err != nil {
			return &syntaxFile{rel: *rel, errs: scanner.ErrorList{{Msg: skipReason(err)}}}
		}
		clean, badLine := extract.SanitizeUTF8(src)
		f, err := parser.ParseFile(fset, *rel, clean, parser.ParseComments|parser.AllErrors)
		sf := &syntaxFile{rel: *rel, orig: src, src: clean, ast: f}
		if el, ok := err.(scanner.ErrorList); ok {
			sf.errs = el
		} else if err != nil {
			sf.errs = scanner.ErrorList{{Msg: err.Error()}}
		}
		if badLine > 0 {
			sf.errs = append(scanner.ErrorList{utf8Error(*rel, badLine)}, sf.errs...)
		}
		return sf
	})
	groups := make(map[string]*syntaxUnit)
	for _, sf := range parsed {
		if sf == nil {
			continue
		}
		if sf.ast == nil {
			l.problems = append(l.problems, analyze.Problem{Kind: analyze.ProblemSkipped, Path: sf.rel, Msg: sf.errs[0].Msg})
			continue
		}
		dir := path.Dir(sf.rel)
		name := ""
		if sf.ast.Name != nil && sf.ast.Name.Name != "_" {
			name = sf.ast.Name.Name
		}
		if name == "" {
			name = path.Base(dir)
			if dir == "." {
				name = "main"
			}
		}
		k := extract.ScopeKey(dir, name)
		g := groups[k]
		if g == nil {
			g = &syntaxUnit{dir: dir, pkgName: name}
			groups[k] = g
		}
		g.files = append(g.files, sf)
	}
	units := make([]*syntaxUnit, 0, len(groups))
	for _, k := range sortedKeys(groups) {
		units = append(units, groups[k])
	}
	prefix := l.noModulePrefix(units)
	umapper := iter.Mapper[*syntaxUnit, *extract.Result]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	results := umapper.Map(units, func(u **syntaxUnit) *extract.Result {
		if l.ctx.Err() != nil {
			return nil
		}
		return l.extractSyntax(fset, *u, prefix)
	})
	for _, r := range results {
		if r != nil {
			l.results = append(l.results, r)
		}
	}
}

func skipReason(err error) string {
	switch {
	case errors.Is(err, analyze.ErrBinary):
		return "binary content, not Go source"
	case errors.Is(err, analyze.ErrTooLarge):
		return "larger than the file size limit"
	case errors.Is(err, analyze.ErrOutsideRoot):
		return "a symbolic link leaves the repository"
	}
	return "unreadable: " + err.Error()
}

// extractSyntax extracts one syntax unit.
func (l *loader) extractSyntax(fset *token.FileSet, u *syntaxUnit, prefix string) (res *extract.Result) {
	importPath := l.importPathOf(u.dir, prefix)
	if strings.HasSuffix(u.pkgName, "_test") && !strings.HasSuffix(importPath, "_test") {
		importPath += "_test"
	}
	res = &extract.Result{Scope: extract.ScopeKey(u.dir, u.pkgName), ImportPath: importPath, PkgName: u.pkgName, Dir: u.dir}
	defer func() {
		if r := recover(); r != nil {
			res.Edges, res.Raws, res.MethodSets = nil, nil, nil
			res.Problems = append(res.Problems, analyze.Problem{Kind: analyze.ProblemLoad, Path: u.dir,
				Msg: fmt.Sprintf("internal error extracting %s: %v; its edges are missing", u.dir, r)})
		}
	}()
	sort.Slice(u.files, func(i, j int) bool { return u.files[i].rel < u.files[j].rel })
	x := extract.NewExtractor(res, fset)
	for _, sf := range u.files {
		f := extract.FileFacts(sf.rel, sf.orig)
		l.opt.source(f, sf.orig)
		f.Package = importPath
		f.PkgName = u.pkgName
		f.Degraded = true
		f.Errors = len(sf.errs)
		imports := x.ExtractFile(sf.rel, sf.ast, sf.src)
		res.Files = append(res.Files, extract.FileRec{File: f, Imports: imports})
		res.Problems = append(res.Problems, syntaxProblems(sf.rel, sf.errs)...)
	}
	reason := l.reasonFor(u.files[0].rel)
	if c := buildConstraint(u.files[0].ast); c != "" && (reason == reasonNotListed || strings.HasPrefix(reason, reasonExcluded)) {
		reason = reasonExcluded + " " + l.target() + " (" + c + ")"
	}
	res.Problems = append(res.Problems, analyze.Problem{Kind: analyze.ProblemDegraded, Path: u.dir,
		Msg: fmt.Sprintf("package %s: %s; analysed from syntax only", u.pkgName, reason)})
	return res
}

// buildConstraint returns a file's //go:build line, or "".
func buildConstraint(f *ast.File) string {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build ") {
				return extract.CapText(c.Text, 120)
			}
		}
	}
	return ""
}

// importPathOf is the import path of a directory: under its module, or,
// outside any module, under the prefix the repository's own imports
// suggest.
func (l *loader) importPathOf(dir, prefix string) string {
	rootRel := ""
	if m := l.lay.enclosing; m != nil {
		if r, ok := relUnder(m.dir, l.root); ok {
			rootRel = r
		}
	}
	if p := l.lay.importPath(dir, rootRel); p != "" || l.lay.moduleOf(dir) != nil {
		return p
	}
	switch {
	case dir == "." && prefix != "":
		return prefix
	case dir == ".":
		return path.Base(strings.ReplaceAll(l.root, "\\", "/"))
	case prefix != "":
		return prefix + "/" + dir
	}
	return dir
}

// noModulePrefix guesses the import path of a root outside any module (a
// GOPATH-style tree) from the imports of its own files: an import path
// that ends in one of the repository's directories gives the prefix before
// it. The most common prefix wins, the shortest on ties.
func (l *loader) noModulePrefix(units []*syntaxUnit) string {
	dirs := make(map[string]bool)
	for _, u := range units {
		if l.lay.moduleOf(u.dir) == nil && u.dir != "." {
			dirs[u.dir] = true
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	votes := make(map[string]int)
	for _, u := range units {
		for _, sf := range u.files {
			for _, is := range sf.ast.Imports {
				p, err := strconv.Unquote(is.Path.Value)
				if err != nil {
					continue
				}
				for d := range dirs {
					if pre, ok := strings.CutSuffix(p, "/"+d); ok && pre != "" {
						votes[pre]++
					}
				}
			}
		}
	}
	best, n := "", 0
	for _, pre := range sortedKeys(votes) {
		if votes[pre] > n || (votes[pre] == n && len(pre) < len(best)) {
			best, n = pre, votes[pre]
		}
	}
	return best
}
