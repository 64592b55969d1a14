package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// Lang is the language of a source file.
type Lang uint8

const (
	LangUnknown Lang = iota
	LangGo
	LangRust
	// Languages known only through SCIP indexes (analyze/scip): there is
	// no loader of our own for them.
	LangTypeScript
	LangJavaScript
	LangPython
)

func (l Lang) String() string {
	switch l {
	case LangGo:
		return "go"
	case LangRust:
		return "rust"
	case LangTypeScript:
		return "typescript"
	case LangJavaScript:
		return "javascript"
	case LangPython:
		return "python"
	}
	return "unknown"
}

// FileID indexes Facts.Files.
type FileID int32

// SymID indexes Facts.Symbols. NoSym marks an absent symbol.
type SymID int32

// NoSym is the SymID of no symbol.
const NoSym SymID = -1

// File is one source file of the repository.
type File struct {
	Path     string // repository-relative, forward slashes
	Lang     Lang
	Package  string // Go import path; Rust module path ("mycrate::store::mem")
	PkgName  string // Go package name; Rust crate name
	Category Category
	Size     int64
	Lines    int
	Hash     string // hex SHA-256 of the content, for caches
	Degraded bool   // analysed from syntax only (no type information)
	Errors   int    // syntax errors recovered from
}

// SymbolKind is what a declaration declares.
type SymbolKind uint8

const (
	KindUnknown SymbolKind = iota
	KindFunc
	KindMethod
	KindType      // Go named type that is neither struct nor interface
	KindStruct    // Go struct type, Rust struct
	KindInterface // Go interface type
	KindField     // struct field
	KindConst
	KindVar
	KindEnum
	KindUnion
	KindTrait
	KindImpl // Rust impl block
	KindModule
	KindMacro
	KindTypeAlias
	KindStatic
	KindAssocType // Rust associated type
	KindVariant   // Rust enum variant
)

var kindNames = [...]string{
	KindUnknown:   "unknown",
	KindFunc:      "func",
	KindMethod:    "method",
	KindType:      "type",
	KindStruct:    "struct",
	KindInterface: "interface",
	KindField:     "field",
	KindConst:     "const",
	KindVar:       "var",
	KindEnum:      "enum",
	KindUnion:     "union",
	KindTrait:     "trait",
	KindImpl:      "impl",
	KindModule:    "mod",
	KindMacro:     "macro",
	KindTypeAlias: "type_alias",
	KindStatic:    "static",
	KindAssocType: "assoc_type",
	KindVariant:   "variant",
}

func (k SymbolKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// IsType reports whether the kind declares a type (something methods,
// fields and implementations hang off).
func (k SymbolKind) IsType() bool {
	switch k {
	case KindType, KindStruct, KindInterface, KindEnum, KindUnion, KindTrait, KindTypeAlias:
		return true
	}
	return false
}

// IsCallable reports whether the kind has a body that calls things.
func (k SymbolKind) IsCallable() bool { return k == KindFunc || k == KindMethod }

// Symbol is one declaration with its exact line span.
type Symbol struct {
	Name      string // simple name: FindByEmail, find_by_email
	Container string // receiver or impl type, or enclosing type for fields: UserService
	Kind      SymbolKind
	File      FileID
	Start     int // first line, 1-based, including the doc comment
	End       int // last line, inclusive
	DeclLine  int // line of the name itself
	Doc       string
	Signature string // one line: "func (s *UserService) FindByEmail(ctx context.Context, email string) (*User, error)"
	Exported  bool
	Test      bool  // a test, benchmark, fuzz or example function
	Parent    SymID // enclosing symbol (type of a field or method, impl of an assoc fn), or NoSym
}

// QualName is the name with its container, joined the way the language
// writes it: UserService.FindByEmail in Go, UserService::find_by_email in
// Rust.
func (s *Symbol) QualName(lang Lang) string {
	if s.Container == "" {
		return s.Name
	}
	if lang == LangRust {
		return s.Container + "::" + s.Name
	}
	return s.Container + "." + s.Name
}

// EdgeKind says how one symbol relates to another.
type EdgeKind uint8

const (
	EdgeCalls      EdgeKind = iota + 1 // From's body calls To
	EdgeReferences                     // From mentions To (a type in a signature, a field, a value)
	EdgeMethodOf                       // method or associated item From belongs to type To
	EdgeImplements                     // type From implements interface or trait To
	EdgeEmbeds                         // struct or interface From embeds To
	EdgeTests                          // test From exercises To
	EdgeField                          // type From has field To
	EdgeMacro                          // From invokes macro To
	edgeKindEnd
)

// NumEdgeKinds is one more than the largest EdgeKind, for tables indexed by kind.
const NumEdgeKinds = int(edgeKindEnd)

var edgeNames = [...]string{
	EdgeCalls:      "calls",
	EdgeReferences: "references",
	EdgeMethodOf:   "method_of",
	EdgeImplements: "implements",
	EdgeEmbeds:     "embeds",
	EdgeTests:      "tests",
	EdgeField:      "field",
	EdgeMacro:      "macro",
}

func (k EdgeKind) String() string {
	if int(k) < len(edgeNames) && edgeNames[k] != "" {
		return edgeNames[k]
	}
	return fmt.Sprintf("edge(%d)", k)
}

// ParseEdgeKind is the inverse of EdgeKind.String.
func ParseEdgeKind(s string) (EdgeKind, bool) {
	for k, n := range edgeNames {
		if n != "" && n == s {
			return EdgeKind(k), true
		}
	}
	return 0, false
}

// EdgeOrigin says which analysis found an edge.
type EdgeOrigin uint8

const (
	OriginLoader EdgeOrigin = iota // the language's own loader (go/types, tree-sitter, a language server)
	OriginSCIP                     // an occurrence or relationship of a SCIP index (analyze/scip)
	numOrigins
)

// NumOrigins is one more than the largest EdgeOrigin.
const NumOrigins = int(numOrigins)

func (o EdgeOrigin) String() string {
	switch o {
	case OriginLoader:
		return "loader"
	case OriginSCIP:
		return "scip"
	}
	return fmt.Sprintf("origin(%d)", o)
}

// Edge is a directed, typed relation between two symbols. Several
// occurrences of the same relation are one edge; Line is the first.
type Edge struct {
	From, To SymID
	Kind     EdgeKind
	Exact    bool       // resolved by type information or unambiguous scope; false when matched by name only
	Origin   EdgeOrigin // which analysis found it
	Line     int        // line in From's file where the relation occurs (0 when it has no single place)
}

// Import is a file's dependency on a package (Go import path) or module
// (Rust module path, as in File.Package).
type Import struct {
	File FileID
	Path string
	Line int
}

// ProblemKind classifies a Problem.
type ProblemKind uint8

const (
	ProblemSyntax   ProblemKind = iota + 1 // the file has syntax errors; what parsed is kept
	ProblemType                            // type checking failed; names resolved by syntax
	ProblemLoad                            // the loader itself failed for a package or the module
	ProblemSkipped                         // a file was not analysed (size, binary, unreadable, ignored)
	ProblemDegraded                        // a package or crate was analysed with less precision
	ProblemLimit                           // a limit (time, size, count) cut the analysis short
)

var problemNames = [...]string{
	ProblemSyntax:   "syntax",
	ProblemType:     "type",
	ProblemLoad:     "load",
	ProblemSkipped:  "skipped",
	ProblemDegraded: "degraded",
	ProblemLimit:    "limit",
}

func (k ProblemKind) String() string {
	if int(k) < len(problemNames) && problemNames[k] != "" {
		return problemNames[k]
	}
	return fmt.Sprintf("problem(%d)", k)
}

// Problem is something that went wrong without sinking the load.
type Problem struct {
	Kind ProblemKind
	Path string // repository-relative file or directory; "" for the whole repository
	Line int
	Msg  string
}

func (p Problem) String() string {
	loc := p.Path
	if loc == "" {
		loc = "."
	}
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, p.Line)
	}
	return fmt.Sprintf("%s: %s: %s", loc, p.Kind, p.Msg)
}

// Facts is everything a loader learned about a repository.
type Facts struct {
	Root     string // absolute path of the repository root
	Files    []File
	Symbols  []Symbol
	Edges    []Edge
	Imports  []Import
	Problems []Problem
	Partial  bool // a time limit stopped the load early

	// byPath indexes Files by path, built on first use; the pointer lets
	// concurrent readers (queries of one loaded repository) build and
	// share it without a lock.
	// (An atomic.Value rather than an atomic.Pointer: tests copy facts,
	// and the pointer type forbids it.)
	byPath atomic.Value // *pathIndex
}

// pathIndex is Files by path, as of len(Files) == n.
type pathIndex struct {
	n int
	m map[string]FileID
}

// AddFile appends f and returns its ID.
func (fs *Facts) AddFile(f File) FileID {
	id := FileID(len(fs.Files))
	fs.Files = append(fs.Files, f)
	fs.byPath.Store((*pathIndex)(nil))
	return id
}

// AddSymbol appends s and returns its ID.
func (fs *Facts) AddSymbol(s Symbol) SymID {
	id := SymID(len(fs.Symbols))
	fs.Symbols = append(fs.Symbols, s)
	return id
}

// AddEdge records an edge. Self edges are dropped.
func (fs *Facts) AddEdge(e Edge) {
	if e.From == e.To || e.From < 0 || e.To < 0 {
		return
	}
	fs.Edges = append(fs.Edges, e)
}

// Problemf records a problem.
func (fs *Facts) Problemf(kind ProblemKind, path string, line int, format string, args ...any) {
	fs.Problems = append(fs.Problems, Problem{Kind: kind, Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// FileByPath returns the ID of the file with the repository-relative path p.
// It is safe for concurrent use while the facts do not change.
func (fs *Facts) FileByPath(p string) (FileID, bool) {
	ix, _ := fs.byPath.Load().(*pathIndex)
	if ix == nil || ix.n != len(fs.Files) {
		ix = &pathIndex{n: len(fs.Files), m: make(map[string]FileID, len(fs.Files))}
		for i := range fs.Files {
			ix.m[fs.Files[i].Path] = FileID(i)
		}
		fs.byPath.Store(ix)
	}
	id, ok := ix.m[p]
	return id, ok
}

// SymbolFile returns the file that declares s.
func (fs *Facts) SymbolFile(s SymID) *File { return &fs.Files[fs.Symbols[s].File] }

// Merge appends other's tables to fs, renumbering other's IDs. It is how a
// mixed Go and Rust repository gets one set of facts.
func (fs *Facts) Merge(other *Facts) {
	fileOff := FileID(len(fs.Files))
	symOff := SymID(len(fs.Symbols))
	fs.Files = slices.Grow(fs.Files, len(other.Files))
	fs.Symbols = slices.Grow(fs.Symbols, len(other.Symbols))
	fs.Edges = slices.Grow(fs.Edges, len(other.Edges))
	fs.Imports = slices.Grow(fs.Imports, len(other.Imports))
	for _, f := range other.Files {
		fs.AddFile(f)
	}
	for _, s := range other.Symbols {
		s.File += fileOff
		if s.Parent != NoSym {
			s.Parent += symOff
		}
		fs.Symbols = append(fs.Symbols, s)
	}
	for _, e := range other.Edges {
		e.From += symOff
		e.To += symOff
		fs.Edges = append(fs.Edges, e)
	}
	for _, im := range other.Imports {
		im.File += fileOff
		fs.Imports = append(fs.Imports, im)
	}
	fs.Problems = append(fs.Problems, other.Problems...)
	fs.Partial = fs.Partial || other.Partial
}

// Normalize orders edges by From, To and Kind, then an exact edge first,
// a SCIP index's word over a loader's for the same relation, and the
// smallest line. Every field takes part, so edges equal in this order are
// identical.

// edgeRestCmp is that order for edges of the same From.
func edgeRestCmp(x, y Edge) int {
	if c := cmp.Compare(x.To, y.To); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Kind, y.Kind); c != 0 {
		return c
	}
	if x.Exact != y.Exact {
		if x.Exact {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(y.Origin, x.Origin); c != 0 {
		return c
	}
	return cmp.Compare(x.Line, y.Line)
}

// sortEdges sorts edges in that order, their From symbol ids below n: a
// counting sort by From, then each symbol's few edges by the rest. A
// comparison sort of hugo's 65,000 edges was 6% of a resident edit's CPU.
func sortEdges(edges []Edge, n int) {
	start := make([]int32, n+1) // start[f]: where From f's edges begin
	for _, e := range edges {
		start[e.From+1]++
	}
	for f := 1; f <= n; f++ {
		start[f] += start[f-1]
	}
	out := make([]Edge, len(edges))
	next := slices.Clone(start[:n])
	for _, e := range edges {
		out[next[e.From]] = e
		next[e.From]++
	}
	for f := 0; f < n; f++ {
		if b := out[start[f]:start[f+1]]; len(b) > 1 {
			slices.SortFunc(b, edgeRestCmp)
		}
	}
	copy(edges, out)
}

// Normalize puts every table in a canonical order (files by path, symbols by
// file and position, edges and imports by endpoints) and removes duplicate
// edges, so that facts built concurrently or from a cache compare equal and
// everything downstream is deterministic. IDs are renumbered.
func (fs *Facts) Normalize() {
	// Files by path.
	fileOrder := make([]FileID, len(fs.Files))
	for i := range fileOrder {
		fileOrder[i] = FileID(i)
	}
	sort.SliceStable(fileOrder, func(a, b int) bool { return fs.Files[fileOrder[a]].Path < fs.Files[fileOrder[b]].Path })
	newFile := make([]FileID, len(fs.Files))
	files := make([]File, len(fs.Files))
	for newID, old := range fileOrder {
		newFile[old] = FileID(newID)
		files[newID] = fs.Files[old]
	}
	fs.Files = files
	fs.byPath.Store((*pathIndex)(nil))

	// Symbols by (file, start, end, decl line, kind, container, name).
	for i := range fs.Symbols {
		fs.Symbols[i].File = newFile[fs.Symbols[i].File]
	}
	symOrder := make([]SymID, len(fs.Symbols))
	for i := range symOrder {
		symOrder[i] = SymID(i)
	}
	sort.SliceStable(symOrder, func(a, b int) bool {
		x, y := &fs.Symbols[symOrder[a]], &fs.Symbols[symOrder[b]]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		if x.DeclLine != y.DeclLine {
			return x.DeclLine < y.DeclLine
		}
		if x.End != y.End {
			return x.End > y.End
		}
		if x.Kind != y.Kind {
			return x.Kind < y.Kind
		}
		if x.Container != y.Container {
			return x.Container < y.Container
		}
		return x.Name < y.Name
	})
	newSym := make([]SymID, len(fs.Symbols))
	syms := make([]Symbol, len(fs.Symbols))
	for newID, old := range symOrder {
		newSym[old] = SymID(newID)
		syms[newID] = fs.Symbols[old]
	}
	for i := range syms {
		if syms[i].Parent != NoSym {
			syms[i].Parent = newSym[syms[i].Parent]
		}
	}
	fs.Symbols = syms

	// Edges: renumber, sort, dedupe keeping the exact flag and first line.
	for i := range fs.Edges {
		fs.Edges[i].From = newSym[fs.Edges[i].From]
		fs.Edges[i].To = newSym[fs.Edges[i].To]
	}
	sortEdges(fs.Edges, len(fs.Symbols))
	edges := fs.Edges[:0]
	for _, e := range fs.Edges {
		if n := len(edges); n > 0 {
			last := &edges[n-1]
			if last.From == e.From && last.To == e.To && last.Kind == e.Kind {
				continue // sorted: the kept one is exact if any was, from SCIP if any was, with the smallest line
			}
		}
		edges = append(edges, e)
	}
	fs.Edges = edges

	for i := range fs.Imports {
		fs.Imports[i].File = newFile[fs.Imports[i].File]
	}
	sort.Slice(fs.Imports, func(a, b int) bool {
		x, y := fs.Imports[a], fs.Imports[b]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	imps := fs.Imports[:0]
	for _, im := range fs.Imports {
		if n := len(imps); n > 0 && imps[n-1].File == im.File && imps[n-1].Path == im.Path {
			continue
		}
		imps = append(imps, im)
	}
	fs.Imports = imps

	sort.SliceStable(fs.Problems, func(a, b int) bool {
		x, y := fs.Problems[a], fs.Problems[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Kind != y.Kind {
			return x.Kind < y.Kind
		}
		return x.Msg < y.Msg
	})
	probs := fs.Problems[:0]
	for _, p := range fs.Problems {
		if n := len(probs); n > 0 && probs[n-1] == p {
			continue
		}
		probs = append(probs, p)
	}
	fs.Problems = probs
}

// SymbolsIn returns the IDs of the symbols declared in file f, in order.
// It assumes Normalize has run (symbols sorted by file).
func (fs *Facts) SymbolsIn(f FileID) []SymID {
	lo := sort.Search(len(fs.Symbols), func(i int) bool { return fs.Symbols[i].File >= f })
	hi := sort.Search(len(fs.Symbols), func(i int) bool { return fs.Symbols[i].File > f })
	ids := make([]SymID, 0, hi-lo)
	for i := lo; i < hi; i++ {
		ids = append(ids, SymID(i))
	}
	return ids
}

// Summary is a one-line account of the facts, for logs.
func (fs *Facts) Summary() string {
	var degraded, errs int
	for _, f := range fs.Files {
		if f.Degraded {
			degraded++
		}
		if f.Errors > 0 {
			errs++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d symbols, %d edges, %d imports", len(fs.Files), len(fs.Symbols), len(fs.Edges), len(fs.Imports))
	if degraded > 0 {
		fmt.Fprintf(&b, ", %d files syntax-only", degraded)
	}
	if errs > 0 {
		fmt.Fprintf(&b, ", %d files with syntax errors", errs)
	}
	if fs.Partial {
		b.WriteString(", partial")
	}
	return b.String()
}
