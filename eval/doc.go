// Package eval owns the localization benchmark behind `ctxexpand bench`: it
// loads a dataset of real bug-fix commits, checks out each commit's parent
// without any future history, asks one or more [Ranker] values which files
// matter for the commit message, and scores the answers against the files
// the fix actually changed.
//
// # Dataset
//
// A dataset is a JSON-lines file of [Instance] records (see the benchmark
// README for the fields). [LoadDataset] and [ParseInstance] validate every
// field strictly and name the offending line; [Filter] selects instances by
// language, repository and count.
//
// # Checkouts
//
// [Checkouts] turns an instance into a directory: a shared clone of
// REPOS_DIR/OWNER+NAME/repo, detached at the base commit, with every ref
// deleted and the reflog expired, so only the base commit and its ancestors
// are reachable. Checkouts are cached in a work directory keyed by
// repository and commit, verified (right commit, clean tree, no refs) and
// rebuilt when anything is off.
//
// # Scoring
//
// [IsScoredSource] is the README's definition of a source file; everything
// else is dropped from a ranking before it is scored. [ScoreInstance]
// computes hit@k, rec@k, all@k, the reciprocal rank and inc@B for one
// answer; [Summarize] averages them per language and overall.
//
// # Rankers
//
// A [Ranker] gets the checkout root and the instance with the answer removed
// and returns files best first, each with its reasons, plus, for each token
// budget, the files whose relevant content made it into the bundle. [BM25]
// is the published baseline and itself a Ranker; it does not own a copy of
// the baseline's scoring: terms, parameters and the formula are package
// bm25's, the same that package rank scores the baseline with, and this
// package adds only reading the checkout into documents, ordering,
// reasons and whole-file packing ([PackWholeFiles]). ctxexpand itself is
// evaluated through package engine's Ranker, which runs the whole
// pipeline; eval imports neither rank nor expand.
//
// # Running and reporting
//
// [Run] evaluates every ranker on the same instances, in parallel over
// instances, and returns a [Report] that writes a markdown table
// ([Report.WriteMarkdown]), per-instance JSON ([Report.WriteJSON]) and a
// chart of recall curves ([Report.WriteChart]). Per-instance failures are
// recorded in the report and count as misses; only bad options or an
// unreadable dataset fail the run.
package eval
