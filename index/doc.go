// Package index owns ctxexpand's on-disk index: what one run learned
// about a repository, kept so that the next run only re-analyses what
// changed. It stores keyed, checksummed, versioned blobs and knows
// nothing of what they mean: it is plain Go over plain files, imports
// neither the facts model nor any loader, and needs no setup. The
// pipeline opens it under the user's cache directory and hands it to the
// loaders, which decide what to store and encode their own records.
//
// # Layout
//
// Everything lives under <dir>/index-v<FormatVersion>/ ([DefaultDir] is
// ctxexpand under the user cache directory):
//
//   - objects/<kind>/<aa>/<key>: entries addressed by a [Key], the
//     SHA-256 of everything they were computed from ([Hasher]). Whole-
//     repository snapshots live here, shared by every root whose inputs
//     hash the same.
//   - roots/<RootID>/: per repository root (by absolute path): the file
//     table that lets [Store.HashFiles] skip unchanged files, one
//     [Pack] per kind of small record (per-file or per-package results
//     of the last run), <kind>.recent, the keys of its most recently used
//     whole-repository snapshots of a kind (snapshots.go: older ones are
//     removed), and lastrun.json ([Run]) for `ctxexpand index --stats`.
//   - tmp/: temporary files, renamed into place when complete, and the
//     scratch files where a [Pack] puts aside, until its flush, the records
//     a run adds past 16 MiB (unlinked at once where the system allows).
//
// # Safety
//
// Two processes may use one index at once. Every file is written to tmp/
// and renamed over its destination, so readers see a whole old version or
// a whole new one; entries are immutable and addressed by their inputs,
// so concurrent writers of one key write the same bytes; a root's packs
// and file table are last-writer-wins, which costs the loser some
// recomputation, never a wrong answer. Every entry carries a CRC-32C and
// its kind: a truncated, damaged or foreign file is removed, reported once
// through [Options.Notice], and counted as a miss, and the caller
// rebuilds it. A directory whose FORMAT marker is not this version's is
// reset with a notice. Temporary files a killed run left behind are
// removed after ten minutes; the trim lock ([Store.Trim]) is broken when
// it is older than that.
//
// # Archives
//
// [WriteArchive] writes whole-repository entries and a root's pack
// records into one portable file (the CLI's pack: `ctxexpand index
// --pack`), and [ReadArchive] reads one back, checking its versions and
// checksums and bounding what it decompresses; [Store.PackRecords] and
// [Store.AddRecords] take records out of and into a root's packs. What
// goes in, and under which keys entries come back, is the caller's
// business (archive.go).
//
// # Encoding
//
// Payloads are opaque here. Their owners encode them with package
// [github.com/ctxexpand/ctxexpand/index/wire] (varints and
// length-prefixed strings, no reflection): the loaders their per-file and
// per-package records, package analyze/factcodec a whole repository's
// facts, the pipeline its lexical index and git log. Each owner versions
// its records in their keys or payloads; [FormatVersion] covers only the
// layout and the framing.
package index
