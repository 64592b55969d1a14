// Package rust owns the Rust loader: it reads a repository's Rust code
// into [analyze.Facts] with tree-sitter (github.com/tree-sitter/go-tree-sitter
// and the tree-sitter-rust grammar), syntax only, without running cargo or
// rustc.
//
// [Load] is the entry point. It fails only when the root cannot be read;
// everything else (a syntax error, a missing workspace member, a `mod x;`
// without a file, a binary or oversized file) becomes an [analyze.Problem]
// and the rest is loaded.
//
// # Pipeline
//
//  1. Files: [analyze.ListFiles] lists the .rs files.
//  2. Crates, while the files are parsed: [cargo.Discover] reads the root
//     Cargo.toml and its [workspace] members (globs, exclude), then the
//     nearest Cargo.toml above every file, and gives the packages with
//     their targets (lib, bins, tests, examples, benches, build script),
//     found as Cargo does, declared or by layout; each target becomes a
//     crate. Path dependencies, direct or through [workspace.dependencies],
//     tell which workspace crate a name like ws_core means. Files under no
//     manifest form pseudo crates guessed from the layout: one named X for
//     files under X/src/, else one named after the root directory.
//  3. Parsing, in parallel on a bounded pool (sourcegraph/conc), one parser
//     per worker, called through tree-sitter's C API (parse_string on the
//     Go bytes, libc allocator; see cparse.go and alloc.go for why): the
//     tree gives the declaration skeleton with exact spans; signatures and
//     bodies are read by a small lexer instead of walking every node,
//     because each node visit is a cgo call. Function bodies, which the
//     lexer finds, are left out of the parse altogether (skim.go): that
//     halves tree-sitter's work, and the skimmed tree is checked against
//     the lexer's view before it is used. Item-level macro bodies that
//     look like items (cfg_rt! { pub mod runtime; }) are re-parsed in place
//     so their items and modules are not lost.
//  4. Resolution (package
//     [github.com/ctxexpand/ctxexpand/analyze/rust/resolve], which reads
//     each file's [resolve.FileSyntax] and needs no cgo): on one
//     goroutine, the module tree from crate roots
//     through `mod x;` (x.rs or x/mod.rs, #[path], inline modules), use
//     declarations (groups, globs, renames, pub use re-exports, extern
//     crates) and impl headers; then every file's references, in parallel
//     on [Options.Workers] goroutines (resolve/parallel.go), which is most of the
//     resolution's time; then the test links, by name on the same workers;
//     then the imports.
//
// # Determinism
//
// The facts do not depend on the number of workers or on GOMAXPROCS, edge
// for edge and in the same order (TestWorkersSameFacts). The reference
// phase only reads what the earlier phases built. The memos that resolution
// fills on demand (what a module-level use declaration names, what a type
// alias stands for) are filled before it, on one goroutine, in file and
// symbol order: in a cycle of glob re-exports a memo's content depends on
// the order in which it is filled, so that order is fixed. Each worker has
// its own guard against glob cycles and its own memo of extern crate names
// (both give the same answer whoever asks), and its own memo of the names
// a test in a module can designate; each file's edges go into its
// own buffer and its imports into its own map, and the buffers are appended
// to the facts in file order. [analyze.Facts.Normalize] then sorts every
// table.
//
// # Reuse across loads
//
// With [Options.Cache], each file's extraction is stored under the hash of
// its content; a later load parses only files whose content changed and
// redoes resolution, which is cheap (about a tenth of a cold load's CPU on
// tokio). [Options.FileHash] lets it skip
// reading unchanged files altogether.
//
// # Symbols
//
// Every item becomes a symbol whose span starts at its first doc comment or
// attribute. Functions are [analyze.KindFunc]; functions in impls and traits
// are [analyze.KindMethod] whether or not they take self, with Container
// set to the impl's self type or the trait and Parent to the impl or trait.
// An impl block is [analyze.KindImpl] named after its self type
// ("MemoryStore") or "Trait for Type" ("Store for MemoryStore",
// "From<StoreError> for ServiceError"); the self type's generic arguments
// are dropped, the trait's kept. Enum variants are [analyze.KindVariant]
// with the enum as Parent; named fields of structs, unions and struct-like
// variants are [analyze.KindField]. Items inside an inline module have the
// mod item as Parent. Symbol.Test is set for #[test]-like functions
// (#[test], #[tokio::test], #[bench], #[rstest], #[test_case]) and for
// everything under #[cfg(test)]. Items nested in function bodies are not
// symbols; what they mention counts for the enclosing function.
//
// # Files
//
// File.Package is the module path: "user_svc::store::memory" for a library
// crate's module; other targets are prefixed by their kind, because a
// package's binary usually shares the library's name: "bin:user_svc",
// "test:service_test", "example:demo", "bench:speed", "build:build_script_build".
// File.PkgName is the crate name. Files that no crate root reaches through
// mod declarations get a module path from their location and are marked
// Degraded, with a ProblemDegraded.
//
// # Edges
//
//   - EdgeCalls: f(), path::f(), Type::f(), recv.method(). Calls of a tuple
//     struct or variant constructor are EdgeReferences.
//   - EdgeReferences: types in signatures, fields (from the field and from
//     its struct), impl headers, bounds and where clauses; values, struct
//     literals and variants in bodies; every type a path passes through
//     (ServiceError in ServiceError::Storage).
//   - EdgeMethodOf: method or associated item → its impl's self type, or its
//     trait.
//   - EdgeImplements: type → trait for each `impl Trait for Type`, and each
//     method of a trait impl → the trait method it implements.
//   - EdgeField: struct, union or variant → its fields; enum → its variants.
//   - EdgeMacro: invocation → macro_rules! definition.
//   - EdgeTests: test code (test functions, anything under #[cfg(test)],
//     integration test crates) → the non-test items it calls, references or
//     whose macros it uses; and a test function → the item its name
//     designates (find_by_email_returns_user → find_by_email) when exactly
//     one item of that name is in its scope.
//
// Edge.Exact is true when the path resolved through the module tree and
// use declarations to exactly one item. A method call is resolved through
// its receiver's type when the syntax gives that away: self, a typed
// parameter or local, a local initialised by a call, and chains of fields
// and calls from those (self.store.get(), svc.find(x)?.name, Type::new().m())
// using declared field and return types (Result<T, E> and Option<T> read as
// T, Box/Rc/Arc/Pin/Cow seen through, generic parameters standing for their
// trait bounds). Such a call is exact when that gives one method, and
// dropped when the type is known but not the repository's (a String, a
// HashMap, a type from a registry crate). Otherwise a method call is
// matched by name (Exact false) among the methods of the types the file
// mentions or imports, or to a name unique in the caller's crate; very
// common names (len, get, clone…) are never matched by name alone, and more
// than three candidates are dropped. A trait method and its implementations
// matched together count as the trait method. Paths into crates outside the
// repository (std, registry dependencies) resolve to nothing rather than to
// a guess.
//
// Imports list, per file, the modules its use declarations, `mod x;`
// declarations and qualified paths reach (where the named items are
// declared); a path out of the repository is recorded as the module it
// names (std::collections for std::collections::HashMap).
//
// # Limits
//
// There is no macro expansion (beyond re-parsing item-level macro bodies),
// no cfg evaluation (all cfg variants are loaded), no type inference beyond
// the receiver rules above, and no trait resolution for generic calls.
// Syntax errors inside function bodies are not reported (bodies are not
// parsed, only lexed), nor is valid syntax there that the grammar does not
// know; a file's ProblemSyntax is about its declarations.
package rust
