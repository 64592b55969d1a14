// Package e2e holds ctxexpand's end-to-end reliability suite; it has no
// code of its own, only tests. They drive the real command line
// (package clitest: cli.Main in process, or the test binary re-executed
// as the command) on broken, hostile and large inputs, each run under a
// watchdog:
//
//   - broken_test.go: the scenarios of testdata/broken and the broken
//     files made at test time (huge, binary, unreadable, pipes, links);
//   - limits_test.go: time limits, budgets in every format, huge queries;
//   - security_test.go: paths out of the root, ignored and git files,
//     regular-expression blow-ups, writes;
//   - determinism_test.go: identical output across runs and GOMAXPROCS.
//
// The @url safety tests live in package engine, whose test-only seam
// lets them play DNS. docs/reliability.md lists what each test holds.
package e2e
