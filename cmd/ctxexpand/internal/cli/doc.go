// Package cli owns the ctxexpand command line: one file per command, each
// with an Options struct, a constructor and an unexported run, driven in
// tests through in-memory IO. It maps errors to the documented exit codes.
//
// # Requests
//
// The commands that query (the root command, diff, graph) map their flags
// onto an engine.Request (expand.go's request) and leave checking it to
// the engine (engine.Request.Validate); flagError words a fault with the
// flag's name. Their load options come from the configuration through
// applyConfig (config.go, with engine.ConfigLoad), and what they print
// from engine.Output.Render, whether the run was local or answered by a
// server (viaserver.go, which sends the engine.Request itself). The
// change diff reviews is read by diffmode.ReadChange or diffmode.ReadPatch;
// diff words their refusals. bench maps its flags onto
// engine.BenchOptions and writes engine.Bench's report.
//
// # The on-disk index
//
// Every command that analyses a repository goes through the on-disk index
// (package index, a run recorded by engine.IndexRun) unless --no-cache: under --cache-dir, $CTXEXPAND_CACHE_DIR
// or ctxexpand in the user cache directory. `ctxexpand index` prebuilds it
// and `ctxexpand index --stats` shows what it holds and the last run's hit
// rates. Notices about the index (a corrupt entry rebuilt) go to stderr
// unless --quiet. On a terminal, a progress bar shows the loaders' phases
// once a run has taken more than 400 ms. The Go heap gets a soft limit of
// 1200 MiB unless GOMEMLIMIT is set (memory.go).
//
// # Exit codes
//
//	0  success (notes about skipped or degraded input go to stderr)
//	1  failure: nothing useful could be produced
//	2  usage error: bad flag, bad value, missing query
//	3  partial: a time limit cut the run short; the output is still written and marked partial
package cli
