// Package mcpserver owns ctxexpand's Model Context Protocol server: the
// tools an agent calls to get context from one repository, their argument
// schemas, paging of bundles, and the lifetime of the loaded repository.
// It is built on the official Go SDK (github.com/modelcontextprotocol/go-sdk)
// and answers through package engine, so a tool's bundle is byte for
// byte what the command line prints for the same request.
//
// # Tools
//
//   - expand_context {query, budget?, format?, strategy?, max_files?, page?, depth?, no_tests?}:
//     the bundle for a task in words.
//   - find_symbol {name, limit?}: definitions (path, exact lines, kind,
//     signature, doc) of a Go- or Rust-style name, with suggestions when
//     nothing matches (structured output).
//   - related_files {path, limit?, strategy?, depth?}: the files connected
//     to a file through the symbol graph, with the path that connects each
//     (structured output).
//   - diff_context {base?, head?, query?, budget?, format?, strategy?, max_files?, page?}:
//     the bundle for reviewing a git diff, built as the diff command
//     builds it (package diffmode reads and maps the hunks to changed
//     symbols, [engine.ReviewRequest] makes the request): the list of changes
//     and the hunks lead, the changed symbols are pinned, and the impact
//     strategy adds callers, implementations and tests.
//
// Every tool takes refresh?, which reloads the repository first.
//
// # Errors
//
// Bad arguments, unknown paths and names, a repository that fails to load
// and git failures are tool errors (results with isError set) whose text
// says what to change; a panic in a tool is recovered and reported the
// same way. Protocol errors are left to the SDK.
//
// # Paging
//
// The bundle tools rank up to max_files files and cut pages from that
// ranking ([engine.Session.Page]): page 1 is the command line's bundle; page N+1
// holds the ranked files that pages 1..N did not show with their relevant
// code. Each answer ends with a note saying how many files remain and
// which page to ask for next.
//
// # The loaded repository
//
// Nothing is loaded until the first tool call. The repository is then kept
// by a resident.Repo (package engine/resident), which watches the tree: every
// call first applies the edits made before it, answers from one
// generation, and notes when that generation is newer than the previous
// call's. refresh=true loads everything again. Calls run one at a time.
package mcpserver
