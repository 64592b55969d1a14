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
// # Reuse across runs
//
// A [Source] that also implements [IndexStore] lets [BuildIndex] decode a
// whole index stored for the same facts, or reuse each file's term
// statistics keyed by its content, path and symbols (lexcache.go).
package rank
