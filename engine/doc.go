// Package pipeline owns one run of ctxexpand end to end: loading a
// repository with the language loaders (the only place outside cmd that
// knows them), analysing the query, resolving @references, expanding and
// ranking, and assembling the bundle. The CLI commands, the benchmark
// ranker and the MCP server all go through it, so they agree byte for byte.
//
// # The on-disk index
//
// With LoadOptions.Index set, Load fingerprints its inputs and decodes the
// facts snapshot when nothing changed; otherwise it runs the loaders with
// the root's packs of per-package (Go) and per-file (Rust) results and
// stores the new snapshot (indexed.go). The session's lexical index and
// token counts are kept in the index too (lexstore.go, tokens.go). Output
// is byte-identical with and without the index; indexed_test.go checks it
// across edits, renames, commits switched, go.mod and Cargo.toml changes,
// concurrent processes and damaged entries.
//
// # Time limits
//
// A deadline on ctx bounds the analysis; what follows it runs on the facts
// found so far, marked partial (deadline.go).
package engine
