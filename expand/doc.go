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
// A plain word that may name a symbol (a one-word query, a capitalised
// word inside a sentence: query.Entity.Bare) seeds only a declaration of
// a type, trait, function, module, macro or constant spelled exactly so;
// it never resolves by style or by a fuzzy guess, and a word that names
// nothing is left to the lexical search.
//
// # Ranking and reading order
//
// Files are ranked by the hand-weighted combination of package rank or by
// the learned model of package rank/learn (learned.go). The model's
// features are this package's: [FeatureNames] and each [Candidate]'s
// vector are computed here (features.go) from the seeds, the walk and the
// lexical scores, since only the expansion sees them; rank/learn binds a
// model to them by name and scores them ([ShippedModel] binds the model
// this build ships, [RankingModel] picks the model a request's ranker asks
// for: model.go), and rank owns the hand weights and the lexical evidence,
// with the BM25 formula in package bm25.
// [RankerAuto], the
// default, picks by the query's kind ([RankerFor]): the model trained on
// fixes for fixes and reports, the model trained on questions mined from
// doc comments for questions ([ModelFor] names the model a kind reads),
// the hand weights for lookups and diff review.
// The model's score is a calibrated probability; in a focused fix whose
// names resolved ([StructureDecides]) the files it gives less than
// [LikelyProbability] keep the hand-weighted order, which is the order
// an engineer reads around the symbol. Relevance and reading order are
// two answers: the ranking says which files matter, and for a focused fix
// each file also gets its place in the hand-weighted order
// ([File].ReadAt), which the bundle shows files in (reading.go).
//
// # Engine
//
// An [Engine] holds what is built once per repository (the graph, the
// lexical index, the name index) and answers any number of queries, so the
// MCP server and the benchmark pay the load once.
package expand
