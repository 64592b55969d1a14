// Package scip owns reading SCIP indexes (the code-intelligence format of
// github.com/sourcegraph/scip, emitted by rust-analyzer, scip-typescript,
// scip-python, scip-go, scip-java and others) into the facts model of
// package analyze, and writing our own facts back out as a SCIP index.
//
// # Reading
//
// [Load] reads one or more index files with the official Go bindings and
// turns every document whose text still matches the working tree into
// facts: a [analyze.Symbol] for each global definition (its span is the
// definition's enclosing range, widened upward over doc comments,
// attributes and decorators), and typed edges from every reference
// occurrence to the definition it names, attributed to the innermost
// definition whose enclosing range holds it: calls when the target is a
// function or method and the occurrence is followed by an argument list,
// macro invocations, references otherwise. Relationships marked
// is_implementation give implements edges; rust-analyzer, which writes no
// relationships, encodes trait implementations in its symbols
// (impl#[Type][Trait]method().), and those are decoded the same way. Every
// such edge is exact and carries [analyze.OriginSCIP].
//
// A document is used only when its occurrences still line up with the file
// on disk: every definition's range must hold the definition's name, and
// nearly every reference's range the name it refers to (a few aliases are
// tolerated). Documents that fail the check, or whose file is gone, are
// listed in [Result.Stale] and fall back to our own analysis (or, for a
// language we have no loader for, to text search); a problem names each.
//
// Files of TypeScript, JavaScript and Python, which we have no loader for,
// get their whole facts from the index: symbols, edges, method-of and field
// edges from the descriptors, tests edges from test files (by the usual
// naming rules, [analyze.Classify]), imports from references into other
// files. A file-level module symbol holds what occurs outside every
// definition (the bodies of test callbacks, top-level wiring code).
//
// [Merge] lays a [Result] over facts from our own loaders: where a file is
// covered by both, the SCIP definitions are matched to the loader's symbols
// by name and line, the loader's by-name calls, references and implements
// edges leaving that file are dropped, and the index's exact edges are
// added; the loader's exact edges stay (a duplicate keeps the SCIP origin).
//
// # Features read and ignored
//
// Read: metadata (tool name and version, project root, text encoding),
// documents (relative path, language, position encoding, text when
// present), occurrences (range, symbol, the Definition role, enclosing
// range), symbol information (documentation, signature documentation,
// kind, display name, relationships with is_implementation), external
// symbols (for kinds and names of targets outside the documents).
// Ignored: the roles Import, WriteAccess, ReadAccess, Generated, Test and
// ForwardDefinition (test files are classified by path, generated ones by
// content), syntax kinds, diagnostics, override documentation, the
// relationships is_reference, is_type_definition and is_definition, local
// symbols (their uses are attributed to the enclosing definition), and
// occurrences whose target is defined in no document (standard library and
// dependencies).
//
// # Writing
//
// [Export] writes facts as an index: one document per Go or Rust file, a
// global symbol per declaration in the scheme of the language's own indexer
// (scip-go's for Go, rust-analyzer's for Rust), a definition occurrence at
// the declaration's name with the declaration's span as enclosing range,
// one reference occurrence for each edge at the first place it occurs, and
// implements edges as is_implementation relationships.
package scip
