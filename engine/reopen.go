package engine

import (
	"context"
	"errors"
	"path"
	"strings"
)

// Resident sessions.
//
// A process that keeps a repository loaded (ctxexpand serve, ctxexpand
// mcp) opens its sessions with LoadOptions.Resident and, when files
// change, opens the next one with Reopen, which reuses what the change
// cannot have touched. A resident session keeps the text of every file
// of its facts as its load read it (source.go), so its answers never show
// a file saved since; Stale names a file whose text it could not keep
// (changed between a full load and its check), so that the owner loads
// the new state and asks again rather than answer with new text under
// old symbols.

// Changes says what changed on disk since a session was opened.
type Changes struct {
	// Paths are the repository-relative paths written, created, removed
	// or renamed, in any order.
	Paths []string
	// All says that anything may have changed: events were lost, or the
	// ignore rules or configuration changed.
	All bool
	// Head says that the version-control HEAD may have moved (a commit,
	// a checkout), which changes the history prior and the bundle's
	// commit.
	Head bool
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return !c.All && !c.Head && len(c.Paths) == 0 }

// Merge adds o to c.
func (c *Changes) Merge(o Changes) {
	c.All = c.All || o.All
	c.Head = c.Head || o.Head
	c.Paths = append(c.Paths, o.Paths...)
}

// ErrNotResident is returned by Reopen without a previous session, or for
// one that was not opened with LoadOptions.Resident.
var ErrNotResident = errors.New("pipeline: reopening a session that is not resident")

// Reopen opens root again after the changes ch, with the options prev was
// opened with, reusing from prev what ch cannot have changed: the
// version-control history and commit unless HEAD moved, and the contents
// kept of files whose content hash is the same. The result is
// what Open would give on the tree as it is now. prev stays usable: the
// queries still running on it finish there.
func Reopen(ctx context.Context, prev *Session, opt LoadOptions, ch Changes) (*Session, error) {
	if prev == nil || !opt.Resident || !prev.content.pinned {
		return nil, ErrNotResident
	}
	return open(ctx, prev.Root, opt, prev, ch)
}

// IsInput reports whether the repository path rel is a file a load reads
// (a Go or Rust source, a manifest such as go.mod or Cargo.toml, or a
// SCIP index): a change to any other file leaves the facts as they are.
func IsInput(rel string) bool {
	base := path.Base(rel)
	return strings.HasSuffix(base, ".go") || strings.HasSuffix(base, ".rs") || strings.HasSuffix(base, ".scip") || manifestNames[base]
}

// Stale reports the first file a resident session was asked for whose
// text, as its facts describe it, it could not keep (the file changed or
// vanished between a full load and the load's check of it, source.go),
// or "" when it has not met one. An answer given while Stale is
// non-empty lacks that file's text. Saving a file after its session was
// loaded never makes the session stale: it keeps the text it loaded.
func (s *Session) Stale() string {
	if s.content == nil {
		return ""
	}
	return s.content.changed()
}
