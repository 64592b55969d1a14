// Package draw owns the pictures of an expansion: which part of the graph
// a query's result is drawn from, and the three ways of writing it down —
// Graphviz DOT, Mermaid flowcharts and a self-contained SVG laid out here,
// without Graphviz.
//
// # What is drawn
//
// [Build] picks the nodes from an [expand.Result]: the seeds the walk
// started from (highlighted), then the symbols behind the evidence of the
// ranked files ([expand.File] Symbols, best first), taken a round at a
// time — every file's best symbol, then every file's second — so that a
// cap on the node count keeps breadth rather than one file's detail.
// Nodes that no drawn relation joins to a seed are connected through the
// fewest extra symbols (links) found by a short search of the graph that
// prefers paths through nodes already drawn. Edges are the loaders'
// relations between drawn nodes (calls, uses, implements, tests, …),
// several kinds between the same two nodes sharing one labelled arrow.
// Nodes are clustered by Go package or Rust module.
//
// # Output
//
// Every writer is deterministic: nodes, clusters and edges are sorted
// before output, so the same result draws byte-identical text.
// [WriteDOT] writes clusters as DOT subgraphs; it is written here rather
// than through dominikbraun/graph's draw package, whose output follows
// map order and has no subgraphs. [WriteMermaid] writes a flowchart with
// subgraphs. [WriteSVG] lays the picture out itself: one column per step
// from the seeds, one band per cluster, curved edges with their labels,
// and a legend — readable rather than optimal; pipe DOT to Graphviz for
// its layout. [Write] writes one of them by its name in [Formats].
package draw
