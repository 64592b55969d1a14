// Package expand owns the pipeline from a query plan to a ranked list of
// files: it finds the seeds (symbols and files the query names, stack
// frames, paths and areas, explicit @references, entry points, and the best
// lexical matches), walks the graph outward from them under one or more
// [Strategy] values, and hands the evidence to package rank to be combined.
//
// # Strategies
//
// A strategy is a documented value — a name, a depth, the weight of every
// edge kind in each direction, and which seeds it uses — looked up by name
// for --strategy ([Lookup]). Focused follows a named symbol to its callees,
// callers, types and tests; Broad takes everything matching the query's
// concepts and one hop around it; EntryPoint starts at main packages and
// cmd/ and walks down imports and calls; Semantic ranks by lexical
// similarity with a light graph smoothing. "auto" takes the plan's
// recommendation; names join with "+" to combine strategies, whose
// evidence is merged by max.
//
// # Names
//
// In a fix, a name the query gives that resolves confidently (exact, or in
// another case style, defined in at most three places) stands for its
// symbol: in the files the walk reached, other than the one defining it,
// the words that only spell the name no longer count as lexical evidence
// (names.go), so that the files mentioning it — its callers and tests —
// are not rewarded a second time for the edge the walk already followed.
//
// # Engine
//
// An [Engine] holds what is built once per repository (the graph, the
// lexical index, the name index) and answers any number of queries, so the
// MCP server and the benchmark pay the load once.
package expand
