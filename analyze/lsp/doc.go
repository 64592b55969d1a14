// Package lsp owns the language-server backend: it loads a repository into
// [analyze.Facts] by asking a Language Server Protocol server (gopls for
// Go, rust-analyzer for Rust, or any command given) instead of analysing
// the code itself.
//
// [Load] is the entry point. It starts the server in the repository root,
// runs the initialize handshake, and asks for:
//
//   - textDocument/documentSymbol for every file: the symbols, their exact
//     ranges and their nesting (fields in structs, methods in interfaces,
//     traits and impls, variants in enums);
//   - callHierarchy/outgoingCalls for every function and method: calls
//     edges, each at the line of its first call site;
//   - textDocument/implementation for every Go interface and Rust trait:
//     implements edges from the implementing types;
//   - textDocument/definition for Rust impl blocks (their self type, for
//     method_of edges) and Go embedded fields (embeds edges);
//   - textDocument/references for every symbol: references edges from the
//     innermost symbol around each reference.
//
// Containment gives method_of and field edges, and tests edges follow
// from test functions as in the built-in loaders. Every edge the server
// reports is Exact.
//
// # Spans and names
//
// LSP positions are zero-based; Symbol lines are one-based and inclusive.
// Servers differ on whether a declaration's range covers its doc comment
// (rust-analyzer's does, gopls's does not), so the loader extends every
// span upward over the comment (and, in Rust, attribute) lines directly
// above the declaration, and takes the doc text and a one-line header
// (Symbol.Signature) from the source. gopls names methods "(*T).M"; they
// become M with Container T and Parent the type T of the same package.
// Rust follows the tree-sitter loader: impls are named "Type" or "Trait
// for Type", functions in impls and traits are methods.
//
// Files, categories, hashes and Go imports are read by the loader itself;
// the package is the Go import path from go.mod and the directory, or the
// Rust module path from the nearest Cargo.toml and the file's place in
// the crate.
//
// # Order of work
//
// Symbols come first, for every file at once (documentSymbol needs no type
// information). The edge requests then go directory by directory: the
// directory's files are opened in the server (didOpen), its requests sent,
// and the files closed again. gopls keeps the packages of open files
// type-checked; without opening them it type-checks a package again for
// nearly every request (gin: 392 s instead of 12 s), and with every file of
// a large repository open at once its memory grows with the repository.
// Nested Go modules are passed as workspace folders of their own.
//
// # Bounds and failure
//
// The JSON-RPC 2.0 client (framing.go, conn.go) is written here: the
// x/tools one is internal. Requests run a few at a time
// (Options.Concurrency) under a cap on their number (Options.MaxRequests),
// a timeout each (Options.RequestTimeout) and the caller's context. Every
// read has a deadline once a message has begun, every call has one, and
// the server's process group is killed when Load returns.
//
// Load fails, so that the caller can fall back to the built-in analysis,
// when the server cannot be started, dies, stops answering (several
// timeouts in a row: [ErrUnresponsive]), breaks the protocol
// ([ErrMalformed]) or gives no symbols at all. Failures of single requests
// and work cut off by the cap are recorded as problems next to the facts,
// and a file whose requests failed (gopls cannot type-check files excluded
// by build tags, or packages whose dependencies are missing) is marked
// Degraded.
//
// rust-analyzer is started with build scripts, proc macros and cargo check
// turned off: they would run the repository's code, and symbols and
// references do not need them. gopls runs with GOPROXY=off unless
// Options.AllowNetwork.
package lsp
