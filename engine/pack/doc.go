// Package pack owns packs: the on-disk index of one tree in one file, so
// that one machine (a CI job) can build the index and another start from
// it. It builds on package engine, whose loads the index serves, and on
// package index, which stores and archives the entries.
//
// `ctxexpand index --pack FILE` writes what the on-disk index holds for
// the tree as it is ([Write], [WriteFile]): the facts snapshot and the
// lexical index built on it, and the root's packs of per-file and
// per-package records (Go results and export data, Rust file records,
// per-file term statistics, token counts), with a description of what
// built it ([Info]): the program, the commit, the settings that change the
// analysis, and the content hash of every input file. `--from-pack`
// seeds another machine's index from it ([Seed]; [SeedFromFile] from a
// file or a URL, which [Fetch] reads, and [Read] parses).
//
// Snapshots are stored under keys that name the root's absolute path, so
// Seed stores the pack's under this root's own keys
// ([engine.Fingerprint]), and only when nothing they were computed from
// differs: the same program, the same settings and Go environment (paths
// aside) and every input file with the content it had. Records are keyed
// by what they were computed from, not by where, and are used only under
// their keys; they are taken from a pack of the same program even when
// the tree differs (a pull request's tree, a developer's edits), so that
// only what changed is analysed again. A pack of another program version
// is refused, and so is one whose files are mostly not here (another
// repository): the error wraps [ErrRefused].
package pack
