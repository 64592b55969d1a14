package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"sync"
	"sync/atomic"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/blank"
	"github.com/ctxexpand/ctxexpand/analyze/golang/extract"
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
	hash string // content hash, for repository files (see fileHash)

	once  sync.Once    // parses it
	users atomic.Int32 // packages still to use it
}

// planParse prepares the unit's files for parsing: each file once, shared
// by the packages (variants) that hold it, marked for a full parse
// (comments, function bodies) when a package extracts it. Files are parsed
// by the worker that checks the first package needing them (ensureParsed),
// and their syntax is dropped as soon as the last package using them is
// done (release), so that a large tree is never in memory all at once.
func (l *loader) planParse(order []*node) {
	byName := make(map[string]*parsedFile)
	for _, n := range order {
		if n.reused || !n.needTypes {
			continue
		}
		for _, f := range n.goFiles {
			pf := byName[f]
			if pf == nil {
				pf = &parsedFile{abs: f}
				pf.rel, _ = l.relOf(f)
				byName[f] = pf
			}
			if _, ok := n.assigned[f]; ok && n.full {
				pf.full = true
			}
			pf.users.Add(1)
			n.files = append(n.files, pf)
		}
	}
}

// ensureParsed parses the node's files that no other package parsed yet.
func (l *loader) ensureParsed(n *node) {
	maxSize := 4 * l.opt.maxFileSize()
	for _, pf := range n.files {
		pf.once.Do(func() {
			if l.ctx.Err() != nil {
				pf.skip = "cancelled"
				return
			}
			l.parseOne(l.fset, pf, maxSize)
			if pf.full && pf.skip != "" {
				l.mu.Lock()
				l.problems = append(l.problems, analyze.Problem{Kind: analyze.ProblemSkipped, Path: pf.rel, Msg: pf.skip})
				l.mu.Unlock()
			}
		})
	}
}

// parsed lists the node's files that parsed.
func (n *node) parsed() []*parsedFile {
	out := make([]*parsedFile, 0, len(n.files))
	for _, pf := range n.files {
		if pf.ast != nil {
			out = append(out, pf)
		}
	}
	return out
}

// release drops the syntax of the node's files no other package still
// needs.
func (n *node) release() {
	for _, pf := range n.files {
		if pf.users.Add(-1) == 0 {
			pf.ast, pf.src, pf.orig, pf.errs = nil, nil, nil, nil
		}
	}
	n.files = nil
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
	if pf.rel != "" {
		sum := sha256.Sum256(src)
		pf.hash = hex.EncodeToString(sum[:])
	}
	src, badLine := extract.SanitizeUTF8(src)
	mode := parser.SkipObjectResolution
	if pf.full {
		mode |= parser.ParseComments | parser.AllErrors
	}
	var f *ast.File
	if !pf.full {
		// Declarations only: the bodies need not be parsed.
		if b := blank.Bodies(src); b != nil {
			if bf, berr := parser.ParseFile(fset, pf.abs, b, mode); berr == nil {
				f = bf
			}
		}
	}
	if f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
		pf.ast = f
		return
	}
	f, err = parser.ParseFile(fset, pf.abs, src, mode)
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
