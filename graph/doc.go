// Package graph owns the symbol, file and package graph that expansion
// walks: one node per symbol, per file and per package of the
// [analyze.Facts], and typed edges between them — the symbol relations the
// loaders found (calls, references, method-of, implements, embeds, tests,
// fields, macros) plus the structural ones this package derives (a file
// contains its symbols, a package contains its files, a file imports a
// package).
//
// # Layout
//
// Nodes are dense [NodeID]s: symbols first (NodeID == SymID), then files,
// then packages. The graph is built once and frozen into compressed sparse
// rows in both directions, each half-edge carrying its [Kind], so that
// traversal in hot loops touches only sorted int32 slices. [Graph.Out] and
// [Graph.In] return those rows without allocating.
//
// # dominikbraun/graph
//
// The library is used where it fits — checking, strongly connected
// components and drawing — through [Graph.Library], which copies a subgraph
// into a dgraph value. Traversal never goes through it: its BFS rebuilds
// the adjacency map on every call (see BenchmarkBFS for the measured cost).
package graph
