// Package resolve owns Rust name resolution for the Rust loader (package
// rust): from what each file says on its own ([FileSyntax]: its items
// with spans, its use declarations and the paths it mentions), it builds
// the module tree of every crate, binds use declarations and impl
// headers, resolves every file's references into edges, links tests to
// what they test and records each file's imports, all into
// [analyze.Facts].
//
// [Resolve] is the entry point; package rust calls it with the files it
// parsed ([Parsed]). Resolution reads no source and calls no parser, so
// it builds without cgo; the syntax types are defined here, as what
// resolution consumes, and package rust's extractor and cache write them.
//
// The module tree and the memos of use declarations and type aliases are
// built on one goroutine in file and symbol order; the references are
// then resolved on several workers that only read them (parallel.go),
// each file's edges in its own buffer, appended in file order, so the
// facts do not depend on the number of workers.
package resolve
