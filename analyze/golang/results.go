package golang

import (
	"github.com/ctxexpand/ctxexpand/analyze"
)

// key identifies a declaration by the position of its declaring identifier:
// repository-relative path, line and byte column. Type-checked objects and
// syntax-only declarations of the same identifier get the same key, which
// is how edges cross packages, test variants and separate loads.
type key struct {
	path      string
	line, col int32
}

func (k key) valid() bool { return k.path != "" }

// typeRef is a type named in source: an identifier, or a selector
// qualified by an import name. The zero value means unknown.
type typeRef struct {
	qual, name string
}

// symRec is a symbol found by extraction, before it has an ID.
type symRec struct {
	key    key
	sym    analyze.Symbol // File and Parent are filled in by the merger
	scope  string         // package scope, see scopeKey
	parent key            // fields and interface methods: the enclosing type
	arity  string         // methods: "params/results" for by-name implements
	ftype  typeRef        // fields: the declared type, for syntax member chains
	file   string         // repository-relative path of the declaring file
}

// edgeRec is an edge whose ends are both known by key.
type edgeRec struct {
	from, to key
	kind     analyze.EdgeKind
	exact    bool
	line     int
}

// rawRef is a reference that extraction could not bind to a key on its own:
// a name to look up in a package scope, an import-qualified name, a member
// of a known type, or a method matched by name. The merger resolves it once
// every package's declarations are known.
type rawRef struct {
	from  key
	kind  analyze.EdgeKind // EdgeCalls, EdgeReferences or EdgeEmbeds
	line  int
	file  string // repository-relative path, to resolve import names
	scope string // package scope the reference occurs in

	qual     string // import name qualifying name ("" when unqualified)
	qualPath string // import path qualifying name, when already known
	name     string // the identifier, or the member's name

	// Member lookups: recvType set means name is a member (method or field)
	// of that type, possibly through one field hop; member set without
	// recvType means a method call on a value of unknown type.
	recvQual, recvType, field string
	member                    bool
	exactScope                bool // a unique match through scope is exact
}

// methodSet describes a named type's methods for the implements relation.
type methodSet struct {
	key   key
	scope string
	iface bool
	exact []string // "name signature", sorted; nil when known from syntax only
	arity []string // "name/params/results", sorted
}

// importRec is one import spec of a file.
type importRec struct {
	name, path string // name is "" when implicit
	line       int
}

// fileRec is one analysed file.
type fileRec struct {
	file    analyze.File
	imports []importRec
}

// pkgResult is everything extracted from one package (or one syntax unit).
type pkgResult struct {
	scope      string
	importPath string
	pkgName    string
	dir        string
	files      []fileRec
	syms       []symRec
	edges      []edgeRec
	raws       []rawRef
	msets      []methodSet
	problems   []analyze.Problem

	// foreign, for a result read from the cache, gives the identity of
	// each key it holds outside its own files (foreign.go).
	foreign map[key]string
}

// scopeKey names a package scope: the directory and package name of its
// files. Files of one package share it whether they were type-checked or
// parsed alone; an external test package (name ending in _test) has its own.
func scopeKey(dir, pkgName string) string { return dir + ":" + pkgName }
