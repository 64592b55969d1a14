// Package extract turns Go syntax into the declarations and edges of
// [analyze.Facts], one package at a time, and merges the packages'
// results into one set of facts. It is the part of the Go loader
// (package golang) that reads trees, not the part that finds, checks and
// caches packages.
//
// An [Extractor] reads the files of one package into a [Result]: every
// declaration with its exact span, doc and one-line signature
// ([SymRec]), the edges whose ends it knows ([EdgeRec]), and the
// references it cannot resolve alone ([RawRef]: a selector on a value of
// another package's type, a name seen only by syntax). With type
// information (Extractor.Info set) references resolve through the
// checker's objects (refs_typed.go); without it, through file and
// package scope, imports and receiver types (refs_syntax.go), and such
// edges are inexact.
//
// A [Merger] numbers the files and symbols of all results, resolves the
// raw references against every package's declarations, adds implements
// edges from the method sets ([MethodSet]) and links tests to what they
// test by name. It runs on one goroutine, in the results' key order, so
// the facts it builds do not depend on the order extraction finished in.
//
// Declarations are keyed by the position of their declaring identifier
// ([Key]), so a symbol seen through a package and its test variant, or
// through another module's load, or in a result stored by an earlier
// load, is one symbol. The loader stores results in its cache; their
// encoding lives there, and every exported field of a Result is one it
// writes.
package extract
