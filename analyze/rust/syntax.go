package rust

import "github.com/ctxexpand/ctxexpand/analyze"

// fileSyntax is what one file says on its own, before any cross-file
// resolution: its items with spans and the unresolved references of each.
// The extractor produces it on a worker goroutine; the resolver reads it on
// one goroutine.
type fileSyntax struct {
	items    []item
	uses     []useDecl // item-level use declarations (of the file or of an inline module)
	lines    int
	errors   int    // ERROR and MISSING nodes
	errLine  int    // line of the first one
	innerDoc string // the file's //! and /*! */ documentation
	problems []string
}

// refKind is how a path is used where it occurs.
type refKind uint8

const (
	refType   refKind = iota + 1 // in a signature, field, alias, bound or impl header
	refCall                      // path(…) in a body
	refValue                     // any other path in a body or initialiser
	refMethod                    // recv.name(…)
	refMacro                     // path!(…)
)

// ref is one unresolved mention of a path.
type ref struct {
	kind refKind
	line int32
	path []string // segments; for refMethod the method name alone
	recv []string // refMethod receiver chain: [self store], [user]; nil when not a simple chain
}

// useDecl is one leaf of a use tree: `use a::b::{c as d, e::*}` gives
// [a b c]→d and [a b e]→*.
type useDecl struct {
	path   []string
	alias  string // the bound name; "" for globs, "_" for anonymous trait imports
	glob   bool
	pub    bool // pub use: a re-export (pub(crate) and narrower count too)
	line   int32
	mod    int32 // index of the enclosing inline mod item, -1 for the file's module
	extern bool  // from `extern crate`
}

// generic is a type parameter with the trait paths that bound it, from the
// parameter list and the where clause.
type generic struct {
	name   string
	bounds [][]string
}

// local is a variable whose type the syntax gives away: a parameter
// `user: &User`, `let x: T`, `let x = T { … }`, or one initialised by a
// call whose return type the resolver can look up: `let x = f(…)`,
// `let x = T::new(…)`, `let x = self.store.get(…)`.
type local struct {
	name       string
	typ        []string // head path of the type, wrappers (&, Box, Arc, dyn, impl) removed
	typed      bool     // written with a type; typ is nil when that type is a primitive, tuple or slice
	init       []string // the called path of `let x = path(…)`
	initRecv   []string // the receiver chain of `let x = self.a.m(…)`: [self a]
	initMethod string   // and its method: m
}

// item is one declaration.
type item struct {
	kind      analyze.SymbolKind
	name      string
	container string // impl self type, trait, struct or enum name for members
	start     int    // first line, doc comments and attributes included
	end       int
	decl      int
	doc       string
	sig       string
	exported  bool
	test      bool  // #[test], #[tokio::test], #[bench] and the like
	cfgTest   bool  // #[cfg(test)] on the item or an enclosing one
	parent    int32 // enclosing item index or -1
	mod       int32 // enclosing inline mod item index or -1 for the file's module
	selfParam bool  // a method (fn with a self parameter)

	// impl blocks
	implType  []string // head path of the self type
	implTrait []string // trait path; nil for inherent impls

	// mod items
	external bool     // `mod x;` rather than `mod x { … }`
	paths    []string // #[path = "…"] values, including those under cfg_attr

	macroExport bool // #[macro_export] on a macro_rules!

	generics []generic
	locals   []local
	uses     []useDecl // use declarations inside a function body
	refs     []ref
	typ      []string // fields, consts, statics, aliases: head path of the declared type
	ret      []string // functions: head path of the return type, Result<T, E> and Option<T> read as T
}
