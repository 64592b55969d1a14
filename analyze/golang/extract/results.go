package extract

import (
	"slices"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Key identifies a declaration by the position of its declaring identifier:
// repository-relative path, line and byte column. Type-checked objects and
// syntax-only declarations of the same identifier get the same key, which
// is how edges cross packages, test variants and separate loads.
type Key struct {
	Path      string
	Line, Col int32
}

func (k Key) valid() bool { return k.Path != "" }

// TypeRef is a type named in source: an identifier, or a selector
// qualified by an import name. The zero value means unknown.
type TypeRef struct {
	Qual, Name string
}

// SymRec is a symbol found by extraction, before it has an ID.
type SymRec struct {
	Key       Key
	Sym       analyze.Symbol // File and Parent are filled in by the Merger
	Scope     string         // package scope, see ScopeKey
	Parent    Key            // fields and interface methods: the enclosing type
	Arity     string         // methods: "params/results" for by-name implements
	FieldType TypeRef        // fields: the declared type, for syntax member chains
	File      string         // repository-relative path of the declaring file
}

// EdgeRec is an edge whose ends are both known by key.
type EdgeRec struct {
	From, To Key
	Kind     analyze.EdgeKind
	Exact    bool
	Line     int
}

// RawRef is a reference that extraction could not bind to a key on its own:
// a name to look up in a package scope, an import-qualified name, a member
// of a known type, or a method matched by name. The Merger resolves it once
// every package's declarations are known.
type RawRef struct {
	From  Key
	Kind  analyze.EdgeKind // EdgeCalls, EdgeReferences or EdgeEmbeds
	Line  int
	File  string // repository-relative path, to resolve import names
	Scope string // package scope the reference occurs in

	Qual     string // import name qualifying Name ("" when unqualified)
	QualPath string // import path qualifying Name, when already known
	Name     string // the identifier, or the member's name

	// Member lookups: RecvType set means Name is a member (method or
	// field) of that type, possibly through one field hop (Field); Member
	// set without RecvType means a method call on a value of unknown type.
	RecvQual, RecvType, Field string
	Member                    bool
	ExactScope                bool // a unique match through scope is exact
}

// MethodSet describes a named type's methods for the implements relation.
type MethodSet struct {
	Key   Key
	Scope string
	Iface bool
	Exact []string // "name signature", sorted; nil when known from syntax only
	Arity []string // "name/params/results", sorted
}

// ImportRec is one import spec of a file.
type ImportRec struct {
	Name, Path string // Name is "" when implicit
	Line       int
}

// FileRec is one analysed file.
type FileRec struct {
	File    analyze.File
	Imports []ImportRec
}

// Result is everything extracted from one package (or one syntax unit).
type Result struct {
	Scope      string
	ImportPath string
	PkgName    string
	Dir        string
	Files      []FileRec
	Syms       []SymRec
	Edges      []EdgeRec
	Raws       []RawRef
	MethodSets []MethodSet
	Problems   []analyze.Problem

	// Foreign, for a result read from the cache, gives the identity of
	// each key it holds outside its own files (package golang's
	// foreign.go).
	Foreign map[Key]string
}

// ScopeKey names a package scope: the directory and package name of its
// files. Files of one package share it whether they were type-checked or
// parsed alone; an external test package (name ending in _test) has its own.
func ScopeKey(dir, pkgName string) string { return dir + ":" + pkgName }

// ForLoad is a copy of a kept result that a load may change as the
// loader's remapForeign does (its edges).
func (r *Result) ForLoad() *Result {
	c := *r
	c.Edges = slices.Clone(r.Edges)
	return &c
}
