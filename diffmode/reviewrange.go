package diffmode

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrNoWorkTree says the root is not inside a git work tree, so there is
// no history to compare.
var ErrNoWorkTree = errors.New("not inside a git work tree")

// A ReviewRange is what a review of revisions compares, as ResolveRange
// works it out from a base and a head that may each be left out; read
// its change with [ReadRange].
type ReviewRange struct {
	// Range is the commits git compares.
	Range Range
	// Label names the range: "working tree against HEAD", "main..feature".
	Label string
	// Base is the base commit, where the old side of files is read;
	// SubjectsTo ends the range whose commit subjects join the query (""
	// for none).
	Base, SubjectsTo string
	// Notes are what the reviewer should know (a head other than the
	// tree on disk).
	Notes []string
	// WorkTree is set when the new side is the working tree.
	WorkTree bool
}

// ResolveRange checks the revisions base and head (either may be "") in
// root's repository and decides what to compare: neither, the working
// tree against HEAD; base alone, the working tree against base; head
// alone, that commit against its parent; both, base..head. A root outside
// a git work tree is an error wrapping ErrNoWorkTree; a revision that
// could be read as an option or that git does not know, or a missing
// commit to compare with, is a *RevisionError whose words name the
// revision as base or head and say what to give instead.
func ResolveRange(ctx context.Context, root string, base, head string) (ReviewRange, error) {
	base, head = strings.TrimSpace(base), strings.TrimSpace(head)
	g := &Git{Dir: root}
	if err := g.Check(ctx); errors.Is(err, exec.ErrNotFound) {
		return ReviewRange{}, err
	} else if err != nil {
		return ReviewRange{}, fmt.Errorf("%s: %w", root, ErrNoWorkTree)
	}
	headCommit, headErr := checkRev(ctx, g, "HEAD", "HEAD")
	switch {
	case base == "" && head == "":
		if headErr != nil {
			return ReviewRange{}, revisionErrorf("the repository has no commit yet, so there is nothing to compare the working tree with; commit once, or give base")
		}
		return ReviewRange{Range: Range{Base: headCommit}, Base: headCommit, Label: "working tree against HEAD", WorkTree: true}, nil
	case head == "":
		bc, err := checkRev(ctx, g, "base", base)
		if err != nil {
			return ReviewRange{}, err
		}
		r := ReviewRange{Range: Range{Base: bc}, Base: bc, Label: "working tree against " + base, WorkTree: true}
		if headErr == nil {
			r.SubjectsTo = headCommit
		}
		return r, nil
	}
	hc, err := checkRev(ctx, g, "head", head)
	if err != nil {
		return ReviewRange{}, err
	}
	var bc string
	if base == "" {
		base = head + "^"
		if bc, err = checkRev(ctx, g, "base", base); err != nil {
			return ReviewRange{}, revisionErrorf("head %q has no parent commit to compare with; give base", head)
		}
	} else if bc, err = checkRev(ctx, g, "base", base); err != nil {
		return ReviewRange{}, err
	}
	r := ReviewRange{Range: Range{Base: bc, Head: hc}, Base: bc, SubjectsTo: hc, Label: base + ".." + head}
	if headErr != nil || hc != headCommit {
		r.Notes = append(r.Notes, fmt.Sprintf("the repository was analysed as it is on disk, not at %s: line numbers of the surrounding context may differ from that revision", head))
	}
	return r, nil
}

func revisionErrorf(format string, args ...any) error {
	return &RevisionError{fmt.Errorf(format, args...)}
}

// checkRev refuses revisions that could be read as options and those git
// does not know, and returns the commit a known one names; name is what
// the caller calls the revision (base, head).
func checkRev(ctx context.Context, g *Git, name, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, " \t\n\x00") {
		return "", revisionErrorf("%s %q is not a revision: give a branch, tag or commit such as main, v1.2.0, HEAD~3 or a commit hash", name, rev)
	}
	c, err := g.Commit(ctx, rev)
	if err != nil {
		return "", revisionErrorf("%s %q names no commit in this repository: give a branch, tag or commit such as main, HEAD~3 or a commit hash", name, rev)
	}
	return c, nil
}
