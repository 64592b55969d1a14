// Package cli owns the ctxexpand command line: one file per command, each
// with an Options struct, a constructor and an unexported run, driven in
// tests through in-memory IO. It maps errors to the documented exit codes.
//
// # Exit codes
//
//	0  success (notes about skipped or degraded input go to stderr)
//	1  failure: nothing useful could be produced
//	2  usage error: bad flag, bad value, missing query
//	3  partial: a time limit cut the run short; the output is still written and marked partial
package cli
