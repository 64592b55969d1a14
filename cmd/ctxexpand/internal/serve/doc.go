// Package serve owns the resident server's socket: the protocol between
// the command line and a running `ctxexpand serve`, both of its ends, and
// where a repository's server lives on disk.
//
// It does not keep the repository current (package engine/resident's Repo
// does, and Serve only asks it queries and its status), does not run the
// expansion itself (package engine, through the resident Repo), and
// does not decide when a command goes to a server or how one is started
// in the background (the cli package's serve.go and viaserver.go).
//
// # Protocol
//
// One request and one response per connection, each a frame of a 4-byte
// big-endian length and a JSON body ([WriteFrame], [ReadFrame]). A
// [Request] carries an operation (query, status, stop), the root, the
// build of ctxexpand and the key of its load options; a query carries
// the engine's own request (engine.Request in its JSON form, checked
// with engine.Request.Validate) and what the command renders besides
// (--timeout, --files-only, --explain). A [Response] holds the output
// byte for byte as the command would print it, its notes and explanation
// (engine.Rendered), or a code: [CodeMismatch] and [CodeStopping] tell
// the client to answer locally, [CodeBadRequest] and [CodeFailed] say
// why not. Malformed input gets CodeBadRequest, never a crash or a hang.
// Client and server are one binary ([Version] guards a stale server).
//
// # The server
//
// [Listen] takes the root's lock (one server per root: [ErrRunning]
// otherwise) and opens its socket; [Listener.Serve] answers until its
// context ends, a client asks it to stop, the engine stops or the idle
// timeout passes. It refuses peers of another user, requests from
// another build, root or set of load options, and bounds the queries
// answered at once.
//
// # The client
//
// [Call] sends one request to a socket and returns the response, or
// [ErrNoServer] when nothing listens there.
//
// # Where a server lives
//
// [PathsFor] names a root's socket, lock, watcher cookie directory and log
// under the cache directory's private serve/ directory (or a private
// directory under the temporary directory when the socket path would be
// too long); [RootKey] names a root by its real path, so that every
// spelling of one root reaches one server.
package serve
