// Package rank owns relevance: how strongly each symbol and file of a
// repository matches a query, and how the evidence from lexical matching,
// named entities, paths and graph expansion combines into one ranked list
// of files, each carrying the contributions that put it there.
//
// # Evidence
//
//   - [Index] is a lexical index built once per repository: BM25F over
//     symbol-level documents (identifier-split and stemmed names, weighted
//     above their container and body) and BM25 over whole files with their
//     path words, plus path-component postings.
//   - [Names] resolves the entities a query names (UserService.find_by_email,
//     pkg.Func, a::b::C) to symbols: exact, qualified, style-insensitive, then
//     fuzzy, and suggests close names when nothing matches.
//   - [Combine] merges per-file evidence into a [Ranking]. Every addition to a
//     file's score is recorded as a [Contrib], so --explain and the bench
//     JSON can say why a file ranks where it ranks.
//
// Ranking is deterministic: ties break by path.
//
// # Who owns what in ranking
//
// Scoring files is split by what each part needs to know, and each part
// has one home:
//
//   - the hand weights ([Weights], [DefaultWeights], [Combine]) and the
//     lexical evidence ([Index]: BM25F over symbols and files, path
//     postings, and [Index.ScorePlain], the benchmark baseline's BM25 of
//     each file) live here;
//   - the baseline's terms and the BM25 formula itself (IDF, term
//     saturation, the published parameters) live in package bm25, which
//     ScorePlain and the benchmark's BM25 ranker (package eval) both call;
//     the BM25F of [Index] takes its IDF from there and weighs its fields
//     itself;
//   - the learned model (its file format, checks, scoring and
//     per-feature contributions) lives in rank/learn;
//   - the model's features and the learned ordering live in package
//     expand (features.go, learned.go, and model.go, which binds the
//     shipped model to the features), because they read what only the
//     expansion has — the seeds by origin, the graph walk's visits and
//     last steps, the query plan — and expand imports rank, never the
//     other way round.
//
// Package eval owns no copy of any of this: its BM25 baselines (files and
// functions) call bm25, its review baseline only orders test files by
// name, and ctxexpand under evaluation is the whole pipeline (package
// engine's Ranker).
//
// # Reuse across runs
//
// A [Source] that also implements [IndexStore] lets [BuildIndex] decode a
// whole index stored for the same facts, or reuse each file's term
// statistics keyed by its content, path and symbols (lexcache.go).
package rank
