package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"runtime"

	"github.com/sourcegraph/conc/iter"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// parsedFile is one parsed file of a unit.
type parsedFile struct {
	abs  string
	rel  string // "" outside the root
	full bool   // parsed with comments and function bodies
	ast  *ast.File
	src  []byte // content as parsed (invalid UTF-8 replaced), kept for repository files
	orig []byte // content as on disk, for the file's hash
	errs scanner.ErrorList
	skip string // why the file was not parsed
}

// parseAll parses every file of the unit once, in parallel: repository
// files being extracted in full with comments, everything else (standard
// library, module cache, other variants) without comments and with
// function bodies dropped, since only declarations matter for importers.
func (l *loader) parseAll(fset *token.FileSet, order []*node) {
	byName := make(map[string]*parsedFile)
	var list []*parsedFile
	for _, n := range order {
		for _, f := range n.goFiles {
			pf := byName[f]
			if pf == nil {
				pf = &parsedFile{abs: f}
				pf.rel, _ = l.relOf(f)
				byName[f] = pf
				list = append(list, pf)
			}
			if _, ok := n.assigned[f]; ok {
				pf.full = true
			}
		}
	}
	maxSize := 4 * l.opt.maxFileSize()
	mapper := iter.Mapper[*parsedFile, struct{}]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	mapper.Map(list, func(pfp **parsedFile) struct{} {
		pf := *pfp
		if l.ctx.Err() != nil {
			pf.skip = "cancelled"
			return struct{}{}
		}
		l.parseOne(fset, pf, maxSize)
		return struct{}{}
	})
	for _, pf := range list {
		if pf.full && pf.skip != "" && pf.skip != "cancelled" {
			l.problems = append(l.problems, analyze.Problem{Kind: analyze.ProblemSkipped, Path: pf.rel, Msg: pf.skip})
		}
	}
	for _, n := range order {
		for _, f := range n.goFiles {
			if pf := byName[f]; pf.ast != nil {
				n.files = append(n.files, pf)
			}
		}
	}
}

func (l *loader) parseOne(fset *token.FileSet, pf *parsedFile, maxSize int64) {
	if pf.rel != "" {
		if st, err := os.Stat(pf.abs); err == nil && st.Size() > maxSize {
			pf.skip = "larger than the file size limit"
			return
		}
	}
	src, err := os.ReadFile(pf.abs)
	if err != nil {
		pf.skip = "unreadable: " + err.Error()
		return
	}
	if pf.rel != "" && analyze.IsBinary(src) {
		pf.skip = "binary content"
		return
	}
	if pf.full {
		pf.orig = src
	}
	src, badLine := sanitizeUTF8(src)
	mode := parser.SkipObjectResolution
	if pf.full {
		mode |= parser.ParseComments | parser.AllErrors
	}
	f, err := parser.ParseFile(fset, pf.abs, src, mode)
	if f == nil {
		pf.skip = "unparsable: " + firstLine(fmt.Sprint(err))
		return
	}
	if el, ok := err.(scanner.ErrorList); ok {
		pf.errs = el
	}
	if badLine > 0 {
		pf.errs = append(scanner.ErrorList{utf8Error(pf.abs, badLine)}, pf.errs...)
	}
	if pf.full {
		pf.src = src
	} else {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
	}
	pf.ast = f
}
