// Package pipeline owns one run of ctxexpand end to end: loading a
// repository with the language loaders (the only place outside cmd that
// knows them), analysing the query, resolving @references, expanding and
// ranking, and assembling the bundle. The CLI commands, the benchmark
// ranker and the MCP server all go through it, so they agree byte for byte.
package pipeline
