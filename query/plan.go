package query

// Action is what the user wants to do.
type Action string

const (
	ActionCreate   Action = "create"
	ActionModify   Action = "modify"
	ActionDebug    Action = "debug"
	ActionExplain  Action = "explain"
	ActionRefactor Action = "refactor"
	ActionSearch   Action = "search"
	ActionTest     Action = "test"
)

// Scope is how much of the codebase the task is likely to touch.
type Scope string

const (
	ScopeFocused  Scope = "focused"  // one or a few named symbols
	ScopeModule   Scope = "module"   // a package, crate module or area
	ScopeCodebase Scope = "codebase" // cross-cutting
)

// TermKind says where a search term came from.
type TermKind uint8

const (
	TermWord      TermKind = iota + 1 // a plain word of the query
	TermIdent                         // a whole identifier written in code style (FindByEmail → "findbyemail")
	TermIdentPart                     // a part of a split identifier ("find", "email")
	TermSynonym                       // added from the concept synonym table
	TermArea                          // from an area prefix ("xdsclient:", "tsdb/wlog:")
	TermPath                          // a component of a path mentioned in the query
)

// Term is one weighted search term: lower case, stemmed with Stem.
type Term struct {
	Text   string
	Weight float64
	Kind   TermKind
}

// EntityKind is what an entity names.
type EntityKind uint8

const (
	EntitySymbol EntityKind = iota + 1 // UserService.find_by_email, pkg.Func, a::b::C, FindByEmail
	EntityPath                         // service/user.go, src/store/mem.rs
	EntityCode                         // back-ticked code that is not a plain symbol
)

// Entity is something the query names explicitly.
type Entity struct {
	Raw   string     // as written
	Kind  EntityKind //
	Parts []string   // qualifier chain, outermost first: ["UserService", "find_by_email"]
	// Explicit is true for @Symbol references and back-ticked names: the
	// user insisted on this name.
	Explicit bool
	// Salience is how much the task rests on the entity, from 0 to 1: 1
	// for a name in a one-line task or a report's title, less for one a
	// long report mentions once in its description, its code or its
	// output, and less again for a plain word in back-ticks there (a
	// config key, a value). 0 means 1 (planners that do not weigh).
	Salience float64
	// Bare is true for a plain word that may name a symbol though its
	// spelling does not say so ("Router" in "how does Router match
	// paths", or a query that is one word): it seeds only a symbol
	// declared with exactly that spelling, and is dropped silently
	// otherwise.
	Bare bool
}

// Weight is the entity's salience, 1 when unset.
func (e Entity) Weight() float64 {
	if e.Salience <= 0 || e.Salience > 1 {
		return 1
	}
	return e.Salience
}

// Name is the innermost part of the entity (the symbol's own name).
func (e Entity) Name() string {
	if len(e.Parts) == 0 {
		return e.Raw
	}
	return e.Parts[len(e.Parts)-1]
}

// Frame is one frame of a pasted stack trace (Go panic, Rust backtrace).
type Frame struct {
	Func string // as printed: "main.(*UserService).FindByEmail", "app::store::Store::orders_of"
	Path string // file path as printed (may be absolute or outside the repository)
	Line int
	// External is true for frames of the runtime, the standard library or
	// a dependency (GOROOT, module cache, rustc sources, cargo registry):
	// they locate the failure but are rarely where the fix goes.
	External bool
}

// RefKind is the form of an explicit @reference.
type RefKind uint8

const (
	RefFile   RefKind = iota + 1 // @path/to/file.go or @path/to/file.go#L10-20
	RefSearch                    // @search:"literal text"
	RefGrep                      // @grep:"regex"
	RefURL                       // @url:https://…
	RefSymbol                    // @Symbol, @pkg.Symbol, @crate::path::Item
)

// Ref is an explicit @reference as parsed from the query, not yet resolved.
type Ref struct {
	Kind      RefKind
	Raw       string // the whole reference as written, "@" included
	Value     string // path, text, pattern, URL or symbol
	StartLine int    // for RefFile with #L: first line (1-based), else 0
	EndLine   int    // for RefFile with #L: last line, inclusive, else 0
}

// Plan is what query analysis makes of a task: the input to seed
// resolution, expansion and ranking, and what --explain prints.
type Plan struct {
	Text       string   // the query as given
	Clean      string   // the query with @references removed
	Action     Action   //
	Kind       Kind     // fix, issue, question or lookup (kind.go); diff mode sets diff
	Terms      []Term   // weighted search terms, deduplicated, in order of first appearance
	Keywords   []string // the distinct term texts, for display
	Entities   []Entity //
	Paths      []string // file or directory paths mentioned (not @references)
	Globs      []string // file patterns ("internal/auth/*.go") suggested by a model planner
	Areas      []string // area prefixes: "xdsclient", "tsdb/wlog"
	Errors     []string // quoted error strings and panic messages
	Frames     []Frame  // stack frames from pasted traces, innermost first
	Refs       []Ref    // explicit @references in order of appearance
	Scope      Scope    //
	Complexity int      // 1 (a one-line fix) to 5 (a cross-cutting feature)
	// Strategy is the expansion strategy query analysis recommends:
	// "focused", "broad", "entrypoint" or "semantic"; several may be
	// combined with "+" ("focused+semantic").
	Strategy     string
	Depth        int    // recommended BFS depth
	IncludeTests bool   // whether tests are wanted in the bundle
	Planner      string // "heuristic" or the name of the model planner that made the plan
	Warnings     []string
}
