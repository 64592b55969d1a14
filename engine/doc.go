// Package engine answers a query about a repository: it loads the
// repository with the language loaders (the only package that imports
// them), reads the query, resolves its
// @references, expands and ranks the files, and assembles the bundle. The
// command line, the MCP server, the resident server and the benchmark
// ranker all go through it, so they agree byte for byte.
//
//	s, err := engine.Open(ctx, root, engine.LoadOptions{})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	out, err := s.Query(ctx, engine.Request{Query: "fix UserService.find_by_email", Budget: 16000})
//	// out.Result.Files is the ranking, out.Bundle the code to read.
//
// # Sessions
//
// A [Session] is a loaded repository: its facts (files, declarations and
// the edges between them), the [expand.Engine] built on them (the graph,
// the lexical index, the name index) and the repository's recent
// version-control history. It answers any number of queries.
//
// [Open] pays for the load. Cold, that is the whole repository: every Go
// and Rust file parsed and analysed, any SCIP index read, the graph and
// the lexical index built, and git's log read to weigh recently changed
// files (not with [LoadOptions].NoHistory). With LoadOptions.Index set,
// the load goes through the on-disk index (below): an unchanged tree
// decodes a snapshot instead, and a changed one redoes only what depends
// on the change. [Load] is the loading step alone, giving the facts.
//
// [Session.Close] returns once the session's writes to the index are done;
// call it before the process exits.
//
// # Queries
//
// [Session.Query] answers one [Request] in five steps. It plans: reads
// the query's kind, names, paths, stack frames and terms, with the
// heuristic planner or a local model (Request.Planner). It seeds: the
// symbols and files the query names, and its @references (files, @grep
// and @search matches, @url pages unless Request.NoNetwork). It expands:
// walks the graph from the seeds under Request.Strategy, to Request.Depth
// (zero: the strategy's and the plan's). It ranks: keeps the best
// Request.MaxFiles files (zero: 30), each with its reasons. And when
// Request.Budget is positive it bundles: the files' code, cut to fit the
// budget in Request.Tokenizer's tokens, in Request.Format. Without a
// budget the answer stops at the ranking.
//
// [Request.Validate] checks a request's settings and names the field at
// fault in a [RequestError], which each door words its own way (the
// command line's --max-files, the MCP tools' max_files); Run and Query
// refuse a request that fails it. A Request's JSON form is the resident
// server's query message.
//
// The [Output] holds the plan, the ranked files (Output.Result.Files,
// best first), the bundle, the non-file contents that lead it ([Extra]:
// fetched pages, search results, references that failed) and the notes a
// user should read ([Output.WriteNotes]); [Output.FilesOnly] and
// [Output.WriteExplain] render the ranking, and [Output.Render] gives
// what a command prints: the bundle or the file list, the notes and the
// explanation. Problems met while loading (a file that does not parse, a
// loader that failed) do not fail the load; they are recorded in
// Output.Facts.Problems.
//
// [Run] is the one-shot form: it opens Request.Root with Request.Load,
// answers the request, and closes the session.
//
// [Session.Page] cuts a ranking into pages of one budget each (the MCP
// tools' page argument), and [RelatedRequest] with [Session.Related]
// ranks the neighbours of one file, which [Session.AnalysedFile] finds
// from a path as a caller wrote it.
//
// # Diff review
//
// Reading the change to review is package diffmode's:
// [diffmode.ReadChange] reads it from git (the working tree, the index,
// or a range from a merge base, a head other than the checked-out tree
// extracted to a temporary directory), [diffmode.ReadRange] reads git's
// diff of a range as given (untracked files added as new), the range
// [diffmode.ResolveRange] chose from a base and a head that may be left
// out, and [diffmode.ReadPatch] reads one from a unified diff.
// [Session.ReviewChange] maps the [diffmode.ChangeSet] onto the facts of
// its new side, giving a [Review]. [ReviewRequest] turns a [Review] (a parsed diff mapped onto the new
// side's facts) into a Request: the query names the changed symbols, the
// changed places are pinned first, and the list of changes and the diff,
// fitted to [DiffShare] of the budget, lead the bundle. It never fetches
// @url references. Request.Changed names the changed files: the test
// files named after them and the files past commits changed together with
// them gain (githistory.Stats.CoChanged), and so do the few tests and
// other source files whose text best spells the words of
// Request.ChangedLines (the added and removed lines); tests are not
// demoted, the files so tied are shown by their symbols that spell those
// words, and the changed files are shown as their changed symbols rather
// than whole (the diff already shows the change). The tests planned next
// to the change (bundle.File.Companion) take at most a third of the
// budget. A change with no files gets
// [EmptyReview], a bundle with none. The benchmark's [Ranker] reviews a
// review instance's uncommitted change the same way.
//
// # Rankers
//
// Request.Ranker chooses how files are ranked. expand.RankerAuto, the
// default, picks by the query's kind (expand.RankerFor): a learned model
// for fixes, issue reports and questions, the hand weights for lookups
// and diff review. expand.RankerLearned always uses the model this build
// ships for the query's kind (expand.ModelFor: one trained on fixes, one
// on questions mined from doc comments); expand.RankerHand always uses the
// hand-weighted sum, with Request.Weights (the zero value means
// rank.DefaultWeights). Output.Result says which ranker ranked and why.
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
// concurrent processes and damaged entries. Packs, a root's index in one
// file that another index is seeded from, are package engine/pack's; a
// [Fingerprint] ([FingerprintOf]) is what it needs of this package: the
// keys of a tree's snapshots, its input files and its settings. An
// [IndexRun] records what one run of a command did with the index, as
// the root's last run.
//
// [ExportSCIP] writes the facts as a SCIP index for other
// tools, [ConfigLoad] gives the load options (ignore rules, their index
// key, SCIP indexes) a configuration file asks for, [LoadOptions.Key]
// names those that change what a load holds (a resident server answers
// only queries with its key), and [FindRoot] finds the repository a
// directory is in.
//
// A resident session (LoadOptions.Resident), kept by a long-running
// process, is brought up to date after edits with [Reopen], which reuses
// what the changes cannot have touched, and stores what it holds in
// memory with [Session.Persist]. Package engine/resident keeps such
// sessions current with the files on disk (a watched repository, a
// generation per applied edit); the resident server and the MCP server
// hold one. It keeps the text of every file of its
// facts, as its load read it (source.go), so that its answers are those
// of the tree it was loaded from however often the files are saved since.
//
// # Time limits
//
// A deadline on ctx bounds the analysis; what follows it runs on the facts
// found so far, marked partial (deadline.go).
//
// # Benchmarks
//
// [Ranker] is the whole engine as an eval.Ranker, cold or sharing loaded
// sessions through a [SessionCache]; [ModelReplay] replays a ranking
// model on feature dumps. [Rankers], [TextWeightRankers], [DumpRanker]
// and [ReplayRankers] are the sets ctxexpand bench compares; [Bench]
// runs one of them end to end (eval.Run, or eval.Replay over dumps) and
// returns the report.
//
// # Layout
//
// The package has two halves with a one-way dependency between them.
// Loading — session.go (the Session's data, Open, Close), load.go (the
// language loaders), lsp.go, scip.go, history.go, configload.go, the
// on-disk index's orchestration (indexed.go, indexrun.go, fingerprint.go,
// lexstore.go, tokens.go), the resident reload (residentload.go,
// reopen.go, source.go), and the time limits and logging both halves use
// (deadline.go, log.go) — builds on its own. Querying — request.go,
// run.go (Query, Run), refs.go, bundle.go, assemble.go, report.go,
// page.go, related.go, review.go, and the
// benchmark's ranker.go, rankerset.go, replay.go and bench.go — uses
// what a Session holds and never the reverse; TestLoadingStandsAlone
// builds the loading files alone to keep it so. Packages engine/pack
// (packs) and engine/resident (sessions kept current) build on this
// one, which imports neither. The doors (cmd/ctxexpand: the command line, the
// MCP server, the resident server's socket) map their flags and
// arguments onto this API and render what it returns.
package engine
