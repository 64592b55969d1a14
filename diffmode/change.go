package diffmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// ErrNoCommits says the repository has no commit to compare the working
// tree with.
var ErrNoCommits = errors.New("the repository has no commits yet, so there is nothing to compare with")

// RevisionError is a revision, named by the caller, that git does not
// know or that could be read as an option; a door words it as a mistake
// in its arguments.
type RevisionError struct{ Err error }

func (e *RevisionError) Error() string { return e.Err.Error() }
func (e *RevisionError) Unwrap() error { return e.Err }

// ChangeSpec names a change to read from git, as ctxexpand diff's flags
// do. The zero value is the working tree against HEAD.
type ChangeSpec struct {
	// Base is the revision to compare from; the merge base of it and the
	// head is used when there is one. "" means HEAD.
	Base string
	// Head is the revision to compare to; "" means the working tree (or
	// the index, with Staged).
	Head string
	// Staged compares the index instead of the working tree.
	Staged bool
	// Paths limit the diff to these paths (git pathspecs).
	Paths []string
}

// A ChangeSet is a change read from git or a diff, before it is mapped
// onto the facts of its new side ([Map]; package engine's
// Session.ReviewChange does it for a loaded repository).
type ChangeSet struct {
	Diff *Diff
	// Sources read the old side of the changed files.
	Sources Sources
	// Root is where the new side is on disk: the repository's root, or a
	// temporary directory holding a head other than the checked-out tree
	// (removed by Close).
	Root string
	// Commit is the new side's commit, when it is one.
	Commit string
	// Subjects are the commit subjects of the change, newest first.
	Subjects []string
	// What names the change: "the working tree against HEAD (4d4e02d)".
	What string
	// Notes are what reading the change found (untracked files, a missing
	// merge base, CRLF input).
	Notes []string

	cleanup func()
}

// Close removes what reading the change extracted. It may be called on a
// nil ChangeSet.
func (ch *ChangeSet) Close() {
	if ch != nil && ch.cleanup != nil {
		ch.cleanup()
		ch.cleanup = nil
	}
}

// ReadChange asks git in root for the change spec names: the merge base
// of Base and the head, Head extracted to a temporary directory when the
// working tree is not that commit, the staged or the working tree's
// changes otherwise. It fails with an error wrapping ErrNotGit
// outside a git repository, ErrNoCommits before the first commit, and a
// *RevisionError for a revision git does not know.
func ReadChange(ctx context.Context, root string, spec ChangeSpec) (*ChangeSet, error) {
	g := &Git{Dir: root}
	if err := g.Check(ctx); err != nil {
		return nil, err
	}
	ch := &ChangeSet{Root: root}
	var head string
	var err error
	if spec.Head != "" {
		if head, err = g.Commit(ctx, spec.Head); err != nil {
			return nil, &RevisionError{err}
		}
	}
	against := "HEAD"
	if head != "" {
		against = head
	}
	var base string
	if spec.Base != "" {
		b, err := g.Commit(ctx, spec.Base)
		if err != nil {
			return nil, &RevisionError{err}
		}
		base = b
		if mb, err := g.MergeBase(ctx, b, against); err == nil && mb != "" {
			base = mb
		} else {
			ch.Notes = append(ch.Notes, fmt.Sprintf("%s and %s have no merge base here (a shallow clone?); comparing with %s itself — fetch full history (fetch-depth: 0) for a review of the branch alone", spec.Base, orHead(spec.Head), spec.Base))
		}
	} else if base, err = g.Commit(ctx, "HEAD"); err != nil {
		return nil, ErrNoCommits
	}
	raw, err := g.Diff(ctx, Range{Base: base, Head: head, Staged: spec.Staged, Paths: spec.Paths})
	if err != nil {
		return nil, err
	}
	d, err := ParseBytes(raw, Options{})
	if err != nil {
		return nil, diffError("git's diff", err)
	}
	ch.Diff = d
	ch.Sources = RevSource(g, base)
	switch {
	case head != "":
		ch.What = fmt.Sprintf("%s (%s) against %s (%s)", spec.Head, short(head), orHead(spec.Base), short(base))
		ch.Commit = head
		ch.Subjects, _ = g.Subjects(ctx, base, head, 10)
		if err := ch.extractHead(ctx, g, spec.Head, head); err != nil {
			ch.Close()
			return nil, err
		}
	case spec.Staged:
		ch.What = fmt.Sprintf("the staged changes against %s (%s)", orHead(spec.Base), short(base))
		if len(d.Files) > 0 {
			var paths []string
			for i := range d.Files {
				if p := d.Files[i].NewPath; p != "" {
					paths = append(paths, p)
				}
			}
			if dirty, err := g.Unstaged(ctx, paths); err == nil && dirty {
				ch.Notes = append(ch.Notes, "some staged files have further unstaged changes; symbols are located in the working tree, so their lines may be off")
			}
		}
	default:
		ch.What = fmt.Sprintf("the working tree against %s (%s)", orHead(spec.Base), short(base))
		if spec.Base != "" {
			ch.Subjects, _ = g.Subjects(ctx, base, "HEAD", 10)
		}
		if un, err := g.Untracked(ctx); err == nil && len(un) > 0 {
			ch.Notes = append(ch.Notes, fmt.Sprintf("%d untracked files are not in the diff; git add -N them to include them", len(un)))
		}
	}
	return ch, nil
}

// extractHead points ch.Root at a temporary copy of commit head (named
// name by the caller) unless the working tree already is that commit.
func (ch *ChangeSet) extractHead(ctx context.Context, g *Git, name, head string) error {
	same, err := g.WorkTreeMatches(ctx, head)
	if err != nil || same {
		return err
	}
	dir, err := os.MkdirTemp("", "ctxexpand-head-*")
	if err != nil {
		return fmt.Errorf("making a directory for %s: %w", name, err)
	}
	ch.cleanup = func() { os.RemoveAll(dir) }
	if err := g.Extract(ctx, head, dir); err != nil {
		return err
	}
	ch.Root = dir
	return nil
}

// ReadPatch reads a unified diff from r, named from ("stdin"), as a change
// to root's tree. Bases
// come from the blobs its index lines name, when root is a git repository
// that has them, else from undoing the hunks on the working tree.
func ReadPatch(ctx context.Context, root string, r io.Reader, from string) (*ChangeSet, error) {
	d, err := Parse(r, Options{})
	if err != nil {
		return nil, diffError("the diff on "+from, err)
	}
	read := func(_ context.Context, p string) ([]byte, error) { return analyze.ReadSource(root, p, 0) }
	ch := &ChangeSet{Diff: d, Root: root, What: "the diff read from " + from, Sources: ReverseSource(read)}
	g := &Git{Dir: root}
	if g.Check(ctx) == nil {
		ch.Sources = FirstOf(BlobSource(g), ReverseSource(read))
		if prefix, err := g.Prefix(ctx); err == nil && prefix != "" {
			if n := d.Relative(prefix); n > 0 {
				ch.Notes = append(ch.Notes, fmt.Sprintf("%d files of the diff lie outside %s and were left out", n, prefix))
			}
		}
	}
	if d.CRLF {
		ch.Notes = append(ch.Notes, "the diff has CRLF line endings; they were read as LF")
	}
	return ch, nil
}

// ReadRange reads git's diff of r in root as it stands, with no merge
// base looked for (the MCP server's diff_context compares what it is
// given). When r's new side is the working tree, up to untracked files
// that git does not track yet are added as new files. A diff that can be
// read only in part is kept up to where it breaks, with a note. The
// files are in path order; What and Subjects are the caller's to set.
func ReadRange(ctx context.Context, root string, r Range, untracked int) (*ChangeSet, error) {
	g := &Git{Dir: root}
	raw, err := g.Diff(ctx, r)
	if err != nil {
		return nil, err
	}
	ch := &ChangeSet{Root: root, Sources: RevSource(g, r.Base)}
	d, err := ParseBytes(raw, Options{})
	if err != nil {
		if d == nil {
			return nil, diffError("git's diff", err)
		}
		ch.Notes = append(ch.Notes, fmt.Sprintf("part of the diff could not be read (%v); the files before it are reviewed", err))
	}
	if untracked > 0 && r.Head == "" && !r.Staged {
		files, more, unread, err := g.UntrackedFiles(ctx, untracked)
		if err != nil {
			ch.Notes = append(ch.Notes, "untracked files could not be listed: "+err.Error())
		}
		d.Files = append(d.Files, files...)
		ch.Notes = append(ch.Notes, unread...)
		if more {
			ch.Notes = append(ch.Notes, fmt.Sprintf("only the first %d untracked files are included", untracked))
		}
	}
	sort.SliceStable(d.Files, func(i, j int) bool { return d.Files[i].Path() < d.Files[j].Path() })
	ch.Diff = d
	return ch, nil
}

func orHead(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// diffError explains a diff that could not be read.
func diffError(what string, err error) error {
	if errors.Is(err, ErrMalformed) {
		return fmt.Errorf("reading %s: %w; pass a unified diff as git diff writes it", what, err)
	}
	return fmt.Errorf("reading %s: %w", what, err)
}
