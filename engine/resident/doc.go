// Package resident keeps a repository loaded in a long-running process
// and current with the files on disk: a [Repo], behind ctxexpand serve
// and ctxexpand mcp. (The query engine itself is package engine; a Repo
// holds its sessions, one per applied state.)
//
// [Start] loads the root and watches it. Every change a watcher reports
// is recorded as pending; the next query waits until the pending changes
// are applied, and a quiet spell after a burst of edits applies them in
// the background so that the next query finds them done. Each applied
// state is a [Snapshot] with a generation number: a query runs on one
// snapshot from start to end, so two clients querying while files change
// each get an answer consistent with one generation.
//
// # Never stale
//
// [Repo.Acquire] first makes sure every event the kernel has queued
// before the call is recorded: it creates a cookie file in a private
// directory that the same watcher watches, and waits for that file's own
// event (inotify queues the events of one watcher in order, so everything
// before the cookie has been read once it arrives). A write that returned
// before the query was sent is therefore in the answer.
//
// A write after that is not, even when it lands while the query runs or
// while its generation is being loaded: a generation keeps the text of
// every file its load analysed (engine.LoadOptions.Resident), and its
// answers show that text, never what the disk holds by then, byte for
// byte what a fresh load of the tree it was loaded from would show. Files
// a full load did not read (their facts decoded from the on-disk index)
// are read and checked against their hashes as it ends; one that changed
// in between marks the generation stale (engine.Session.Stale) when a
// query reads it, and the query runs again on a fresh load. Saving a file
// again and again therefore never fails a query.
//
// # What is watched
//
// Directories the loaders read: the walk leaves out what analyze.ListFiles
// leaves out (hidden directories such as .git, target, node_modules) and
// what the ignore rules exclude, so build output and dependency caches
// never flood the queue. Only changes to files a load reads
// (engine.IsInput) and to the ignore rules and configuration count;
// a change to the rules reloads the rules, the watches and everything
// else. HEAD is compared at every query (a commit changes the bundle's
// commit and the history prior without touching a file). When the
// watcher cannot be had (no inotify, the watch limit reached) or the
// kernel's queue overflows, the Repo compares the tree's file
// metadata instead, which is slower but as exact.
//
// # Applying changes
//
// A change is applied with engine.Reopen, which reloads incrementally
// (only what depends on a changed file is analysed again) and reuses the
// history and the file texts that the change cannot have touched (the
// text of a file whose hash did not change is shared between
// generations, not copied). The sessions of one Repo keep the index's
// per-file and per-package records, the lexical index's per-file
// statistics already decoded (rank.TermsMemo), and the inputs' content
// hashes in memory between reloads, so a reload after an edit neither
// hashes the tree nor reads or writes the on-disk index. It still lists
// the tree's files (the loaders walk it), decodes every package's stored
// result, type-checks the edited package and rebuilds the graph and the
// lexical index's postings for the whole repository: on hugo those are
// most of what an edit costs. The Repo stores its state in the on-disk
// index once the tree has been quiet for PersistAfter, and when it
// closes, so that the command line and the next server start warm. A
// server killed before that leaves the index as the last store (or the
// last command) left it: usable, and only as stale as any cache.
//
// # What the engine measures
//
// The engine holds a tokenize.Memo that every session it opens counts
// through (engine.LoadOptions.TokenMemo): the token counts of the texts
// a query renders stay from query to query and across generations, so a
// warm query (one asked before, or one showing the same files) counts
// little. What a first-time query would count is mostly counted before
// it: once a generation is ready, the Repo primes its files in idle time
// (engine.Session.Prime: every file's sections rendered and counted as a
// bundle would, its Go skeleton built), pausing while queries run and
// stopping when an update starts; the caches are keyed by content, so
// the next generation's priming finds what an edit left alone.
// [Options.NoPrime] turns it off. [Repo.Status] carries [Figures]: the
// memo's hits and misses (queries' only; priming's lookups stay out),
// the time from a change being noticed to its generation being ready
// (percentiles over the last [WindowSize] edits, kept in a [Window]), and
// how many files the last update analysed again, and what the last
// priming prepared; their JSON form is the
// one serve --status carries. [RSS] is the process's resident memory.
package resident
