package resolve

import (
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// FileSyntax is what one file says on its own, before any cross-file
// resolution: its items with spans and the unresolved references of each.
// The extractor produces it on a worker goroutine; the resolver reads it on
// one goroutine.
type FileSyntax struct {
	Items    []Item
	Uses     []UseDecl // item-level use declarations (of the file or of an inline module)
	Lines    int
	Errors   int    // ERROR and MISSING nodes
	ErrLine  int    // line of the first one
	InnerDoc string // the file's //! and /*! */ documentation
	Problems []string
}

// RefKind is how a path is used where it occurs.
type RefKind uint8

const (
	RefType   RefKind = iota + 1 // in a signature, field, alias, bound or impl header
	RefCall                      // path(…) in a body
	RefValue                     // any other path in a body or initialiser
	RefMethod                    // recv.name(…)
	RefMacro                     // path!(…)
)

// Ref is one unresolved mention of a path.
type Ref struct {
	Kind RefKind
	Line int32
	Path []string // segments; for RefMethod the method name alone
	Recv []string // RefMethod receiver chain: [self store], [user]; nil when not a simple chain
}

// UseDecl is one leaf of a use tree: `use a::b::{c as d, e::*}` gives
// [a b c]→d and [a b e]→*.
type UseDecl struct {
	Path   []string
	Alias  string // the bound name; "" for globs, "_" for anonymous trait imports
	Glob   bool
	Pub    bool // pub use: a re-export (pub(crate) and narrower count too)
	Line   int32
	Mod    int32 // index of the enclosing inline mod item, -1 for the file's module
	Extern bool  // from `extern crate`
}

// Generic is a type parameter with the trait paths that bound it, from the
// parameter list and the where clause.
type Generic struct {
	Name   string
	Bounds [][]string
}

// Local is a variable whose type the syntax gives away: a parameter
// `user: &User`, `let x: T`, `let x = T { … }`, or one initialised by a
// call whose return type the resolver can look up: `let x = f(…)`,
// `let x = T::new(…)`, `let x = self.store.get(…)`.
type Local struct {
	Name       string
	Typ        []string // head path of the type, wrappers (&, Box, Arc, dyn, impl) removed
	Typed      bool     // written with a type; Typ is nil when that type is a primitive, tuple or slice
	Init       []string // the called path of `let x = path(…)`
	InitRecv   []string // the receiver chain of `let x = self.a.m(…)`: [self a]
	InitMethod string   // and its method: m
}

// Item is one declaration.
type Item struct {
	Kind      analyze.SymbolKind
	Name      string
	Container string // impl self type, trait, struct or enum name for members
	Start     int    // first line, doc comments and attributes included
	End       int
	Decl      int
	Doc       string
	Sig       string
	Exported  bool
	Test      bool  // #[test], #[tokio::test], #[bench] and the like
	CfgTest   bool  // #[cfg(test)] on the item or an enclosing one
	Parent    int32 // enclosing item index or -1
	Mod       int32 // enclosing inline mod item index or -1 for the file's module
	SelfParam bool  // a method (fn with a self parameter)

	// impl blocks
	ImplType  []string // head path of the self type
	ImplTrait []string // trait path; nil for inherent impls

	// mod items
	External bool     // `mod x;` rather than `mod x { … }`
	Paths    []string // #[path = "…"] values, including those under cfg_attr

	MacroExport bool // #[macro_export] on a macro_rules!

	Generics []Generic
	Locals   []Local
	Uses     []UseDecl // use declarations inside a function body
	Refs     []Ref
	Typ      []string // fields, consts, statics, aliases: head path of the declared type
	Ret      []string // functions: head path of the return type, Result<T, E> and Option<T> read as T
}

// IsLower reports whether a name starts with a lower-case letter or an
// underscore: a module, function or variable rather than a type.
func IsLower(s string) bool { return s != "" && (s[0] == '_' || ('a' <= s[0] && s[0] <= 'z')) }

// JoinDoc appends doc text b to doc text a, a line apart.
func JoinDoc(a, b string) string {
	if a == "" {
		return strings.TrimSpace(b)
	}
	return strings.TrimSpace(a + "\n" + b)
}
