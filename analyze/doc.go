// Package analyze owns the language-neutral facts model that every other
// part of ctxexpand reads: the files of a repository, the symbols declared in
// them with exact line spans, and the typed edges between symbols (calls,
// references, method-of, implements, embedding, tests) plus file imports.
//
// Language loaders live in sub-packages (analyze/golang for Go through
// golang.org/x/tools/go/packages, analyze/rust for Rust through tree-sitter,
// analyze/lsp for language servers). Only cmd and benchmarks import them, so
// the graph, expand and rank packages build and test without cgo.
//
// # Facts
//
// A [Facts] value is the output of one load: [File] and [Symbol] tables
// addressed by dense [FileID] and [SymID] indexes, [Edge] records between
// symbols, [Import] records from a file to a package, and [Problem] records
// for everything that went wrong without sinking the load. Loaders never fail
// on a broken repository; they return what they could read and say what they
// skipped.
//
// # Identifiers
//
// [SplitIdent] and [NormName] give the style-insensitive view of names that
// query analysis and ranking share: "find_by_email", "FindByEmail" and
// "find-by-email" all split to [find by email] and normalise to "findbyemail".
//
// # Files
//
// [Classify] puts each path in a [Category] (source, test, generated,
// vendored, example); [ReadSource] reads a file under a root with the limits
// that keep hostile trees harmless (size cap, binary refusal, no escape from
// the root through "..", absolute paths or symlinks). [ListFiles] walks a
// tree for its source files; [Walks] keeps such walks between the loads of
// a caller that knows when the tree's entries may have changed (a resident
// session).
package analyze
