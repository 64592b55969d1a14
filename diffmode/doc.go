// Package diffmode owns the "review a change" side of ctxexpand: it reads
// the change to review from git or a unified diff, parses unified diffs
// (git's format and plain diff -u), maps their hunks to the symbols whose
// spans they touch, and turns those symbols into the seeds, extras and
// notes of a query run with the impact strategy.
//
// Parsing and mapping are pure: they read no repository and load no
// language. They take [analyze.Facts] for the new side of the diff and ask
// a [Sources] for the old side of a file when they need the base version
// (to find deleted symbols). [Git] is the Sources and diff producer the
// command line uses; tests and other callers can bring their own.
//
// # Reading a change
//
// The doors read the change to review through [Git]. [ReadChange] reads
// the change a [ChangeSpec] names (the working tree, the index, or a range
// from a merge base, a head other than the checked-out tree extracted to
// a temporary directory); [ResolveRange] works out the [ReviewRange] to
// compare from a base and a head that may be left out, and [ReadRange]
// reads git's diff of it as given (untracked files added as new);
// [ReadPatch] reads a unified diff instead. Each gives a [ChangeSet]: the
// parsed diff, the Sources of its old side and where its new side is on
// disk, which package engine's Session.ReviewChange maps onto the facts
// of that side. A revision git does not know, or one that could be read
// as an option, is a [*RevisionError], which each door words as a mistake
// in its arguments.
//
// # Parsing
//
// [Parse] reads git's unified diff: file headers ("diff --git", with quoted
// names), extended headers (modes, new and deleted files, renames, copies,
// similarity, index lines with blob names), "---"/"+++" headers with
// /dev/null and timestamps, hunks with their section headings, "\ No
// newline at end of file" markers, binary files ("Binary files … differ"
// and "GIT binary patch" blocks, which are skipped), submodules (mode
// 160000, "Subproject commit" lines) and CRLF line endings (normalised).
// Text before the first file and between files (a commit message, a
// diffstat, a mail signature) is ignored. Malformed input gives a
// [*ParseError] with the line number and the files parsed before it; huge
// input is cut at whole files by [Options] limits and the [Diff] says so.
//
// # Mapping
//
// [Map] finds, for every changed file, the symbols of the new side whose
// spans hold added lines or enclose removed ones (modified or added), and
// the symbols of the base version that held removed lines and are gone
// from the new side (deleted; or moved, when the same name was added
// elsewhere in the diff). Base spans come from a light scan of the old
// text: go/parser over top-level declarations for Go, a brace-matching
// scan with comments and literals masked for Rust. Changes outside any
// symbol (imports, file comments) are reported by line range.
//
// [Report.Seeds] turns the changes into explicit places to pin first, and
// [Extras] renders the diff itself, one section per file, fitted to a share
// of the token budget.
package diffmode
