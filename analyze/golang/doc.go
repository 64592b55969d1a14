// Package golang loads a Go repository into [analyze.Facts]: its files, the
// declarations in them with exact line spans, and the typed edges between
// those declarations (calls, references, method-of, implements, embedding,
// fields, tests) plus each file's imports.
//
// [Load] is the entry point. Its zero [Options] analyse every Go file under
// the root, tests included, without touching the network.
//
// # Typed loading
//
// For each module under the root (one go list for a go.work workspace) the
// loader asks go list, through golang.org/x/tools/go/packages, for the
// package graph only: names, files and imports, never export data. go list
// runs offline and may not touch the repository: when go.sum lacks entries
// for modules already in the module cache, it is retried once with -mod=mod
// on a temporary copy of go.mod and go.sum (offline, without asking the
// checksum database about modules the go command verified when it
// downloaded them). The loader then
// parses and type-checks everything itself, in dependency order on a bounded
// pool of workers: repository packages in full, dependencies (standard
// library, module cache, vendor) from their declarations only, with function
// bodies dropped (blanked before parsing by package
// [github.com/ctxexpand/ctxexpand/analyze/golang/blank]). This keeps a cold load independent of the state of the
// build cache; export data from go list -export would compile every
// dependency (and the repository itself) first.
//
// Nested modules (each its own go list) share the work: the go list of the
// next module runs while the current one is checked, all modules share one
// token.FileSet, and a dependency package identical to one an earlier
// module checked (same import path, files, language version and
// dependencies, recursively) reuses that *types.Package instead of being
// checked again. On grpc-go (a dozen nested modules that reach the main
// module through replace directives) this cut a cold load from about 10 s
// to about 4 s of CPU.
//
// Every file is analysed once: when go list reports a package and its test
// variant, the files come from the test variant, which holds them all.
// Symbols are keyed by the position of their declaring identifier, so
// objects seen through different variants, or through another module's
// load, resolve to the same symbol. Only files under the root become facts;
// edges to the standard library or other dependencies are dropped.
//
// # Memory
//
// Files are parsed by the worker that checks the first package needing
// them, and their syntax is dropped as soon as the last package using them
// is done, so that a large tree is never in memory all at once. With
// [Options.Cache], a package's dependents are checked against its export
// data rather than its full check, which is dropped once the package is
// extracted: the objects and scopes of its function bodies do not live as
// long as its dependents. [Options.Results] keeps decoded results from one
// load to the next (a resident session's [ResultMemo]), with go list's
// decoded answer and the package graph's skeleton made from it while that
// answer is reused; [Options.Walks] keeps the walks of the tree.
//
// # Reuse across loads
//
// With [Options.Cache], each extracted package's result is stored under a
// key covering everything its extraction read (its files by content, its
// language version, the go environment, and the surface of each import: a
// hash of the declarations of that package and of the packages they name,
// recursively),
// and every checked package leaves its export data (its package-level
// declarations, in a shallow encoding of our own) next to the results. A
// later load visits packages in dependency order: results whose keys match
// are reused. A repository package once checked is keyed by the objects
// it used of other packages instead of their whole surfaces, so a
// declaration added to a package checks that package again and none
// above it. A package that must be checked again (its files changed, or
// a declaration it can reach did) imports its dependencies from their export
// data, decoded lazily, instead of checking them from source. Export data,
// go list's kept answers and the keys of every record belong to package
// [github.com/ctxexpand/ctxexpand/analyze/golang/typecache]; this package
// decides what to look up and when, and owns the results' encoding. What
// a result holds, and how results are read from syntax and merged into
// facts, belongs to package
// [github.com/ctxexpand/ctxexpand/analyze/golang/extract]. Surfaces
// leave out lines and columns, and a stored result names what it refers
// to in other packages by identity (file, kind, container, name), moved
// to where it is now when reused: editing a comment or a function body,
// even one that moves the declarations below it, therefore re-checks only
// the edited packages. The copies go list makes of a package for other
// packages' tests borrow its export data. Export data that cannot be
// decoded is never trusted: the unit is checked again from source.
//
// go list's answer is kept per unit and reused while no Go file's header
// (build constraints, package clause, imports, embed directives) changed
// and [Options.ListSalt] is the same; [Fingerprint] describes what outside
// the .go files a load depends on, for that and for whole-load caches.
//
// # Degraded loading
//
// Nothing short of an unusable root makes Load fail. When go list fails
// outright (no go command, a go.mod that asks for a newer Go, a broken
// go.mod, no go.mod at all) or leaves files out (build constraints, a
// package go list rejects), those files are analysed from syntax alone:
// identifiers resolve through file and package scope and imports, methods
// through the declared type of receivers, parameters and simple locals, and
// otherwise by name among a handful of candidates; such edges carry
// Exact=false, and the files are marked Degraded with one ProblemDegraded
// per package saying why. Packages with type errors or missing dependencies
// keep their partial type information, fill the gaps the same syntactic way
// and record ProblemType and ProblemLoad entries.
//
// # Determinism
//
// Extraction runs concurrently, but results are merged on one goroutine and
// [analyze.Facts.Normalize] puts every table in canonical order, so the
// output is byte-identical across runs and GOMAXPROCS settings.
package golang
