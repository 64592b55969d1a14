// Package diffmode owns the "review a change" side of ctxexpand: it parses
// unified diffs (git's format and plain diff -u), maps their hunks to the
// symbols whose spans they touch, and turns those symbols into the seeds,
// extras and notes of a query run with the impact strategy.
//
// The package is pure: it reads no repository and loads no language. It
// takes [analyze.Facts] for the new side of the diff and asks a [Sources]
// for the old side of a file when it needs the base version (to find
// deleted symbols). [Git] is the Sources and diff producer the command line
// uses; tests and other callers can bring their own.
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
