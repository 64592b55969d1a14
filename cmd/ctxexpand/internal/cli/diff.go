package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
)

// diffOptions are the flags of the diff command: which change to review,
// and the expand command's output flags.
type diffOptions struct {
	*expandOptions
	Base   string
	Head   string
	Staged bool
	Stdin  bool
	Paths  []string
}

func newDiffCmd(io *IO) *cobra.Command {
	o := &diffOptions{expandOptions: newExpandOptions()}
	o.Strategy = expand.Impact.Name
	cmd := &cobra.Command{
		Use:   "diff [flags] [-] [[--] PATH...]",
		Short: "Build the context a reviewer needs for a change: the diff, the changed symbols, their callers and tests",
		Long: `diff reads a change — the working tree against HEAD by default, the index with
--staged, a range with --base and --head, or a unified diff on stdin with "-" —
maps every hunk to the symbols whose spans it touches (modified, added, and
deleted ones, read from the base version), and expands from them with the
impact strategy: callers, implementations, owning types and tests.

The bundle leads with the list of changes and the diff itself (at most 40% of
the budget; larger diffs lose context lines, then the diffs of whole files,
which are summarised by line counts), then the changed code, then its context.

--base compares from where the branch left BASE (the merge base, as
git diff BASE...HEAD does). Binary files, submodules, mode changes and
limits are reported as notes on stderr and in the bundle.`,
		Example: `  ctxexpand diff
  ctxexpand diff --staged --files-only
  ctxexpand diff --base origin/main --format json --budget 12000 -o context.json
  git diff HEAD~3 | ctxexpand diff -
  ctxexpand diff --base v1.2.0 --head v1.3.0 -- internal/auth`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			for i, a := range args {
				if a == "-" && (dash < 0 || i < dash) {
					o.Stdin = true
					continue
				}
				o.Paths = append(o.Paths, a)
			}
			return o.run(cmd.Context(), io)
		},
	}
	o.addFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&o.Base, "base", "", "compare from the merge base of this revision and the head (default: HEAD)")
	f.StringVar(&o.Head, "head", "", "compare to this revision (default: the working tree)")
	f.BoolVar(&o.Staged, "staged", false, "compare the index (staged changes) instead of the working tree")
	f.BoolVar(&o.Staged, "cached", false, "same as --staged")
	_ = f.MarkHidden("cached")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *diffOptions) validate() error {
	switch {
	case o.Stdin && (o.Base != "" || o.Head != "" || o.Staged):
		return usagef("--base, --head and --staged choose what git compares; they do not apply to a diff read from stdin")
	case o.Stdin && len(o.Paths) > 0:
		return usagef("paths limit what git compares; filter the diff before piping it instead")
	case o.Staged && o.Head != "":
		return usagef("--staged compares the index; it cannot be combined with --head")
	}
	o.Query = "review" // validated for real once the change is known
	return o.expandOptions.validate()
}

func (o *diffOptions) run(ctx context.Context, io *IO) error {
	if err := o.validate(); err != nil {
		return err
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, o.Timeout)
	defer cancel()
	var ch *diffmode.ChangeSet
	if o.Stdin {
		ch, err = diffmode.ReadPatch(ctx, root, io.In, "stdin")
	} else {
		ch, err = o.fromGit(ctx, root)
	}
	defer ch.Close()
	if err != nil {
		if ctx.Err() != nil {
			// Whatever git said as it was stopped would mislead ("no
			// commits yet", "signal: killed").
			return fmt.Errorf("the time limit (--timeout %v) passed before the change was read; raise --timeout", o.Timeout)
		}
		return err
	}
	if len(ch.Diff.Files) == 0 {
		return o.writeEmpty(ctx, io, ch)
	}

	load := engine.LoadOptions{Logger: io.Log}
	var run *indexedRun
	if ch.Root == root {
		// The working tree: loaded through the on-disk index with the
		// settings of queries and ctxexpand index, so that an index built
		// ahead (or seeded from a pack, see docs/ci.md) is used. A commit
		// extracted to a temporary directory is loaded afresh.
		if load, err = indexLoadOptions(io, root, o.Config); err != nil {
			return err
		}
		run = o.Cache.start(io, o.Quiet)
		run.wire(&load)
	}
	s, err := engine.Open(ctx, ch.Root, load)
	if run != nil {
		run.loaded()
	}
	if err != nil {
		return err
	}
	defer s.Close()
	if run != nil {
		defer run.finish(root)
	}
	if ch.Commit != "" {
		s.FixedCommit = ch.Commit
	}
	rv, err := s.ReviewChange(ctx, ch, "")
	rep := rv.Report
	if err != nil && ctx.Err() != nil {
		// The time limit: the files mapped so far are followed, the rest
		// are still shown in the diff.
		rep.Notes = append(rep.Notes, "the time limit passed while mapping the diff to symbols; the files after that point are shown but not followed")
		s.Facts.Partial = true // the session serves this run only: its output is partial
	} else if err != nil {
		return fmt.Errorf("mapping the diff to symbols: %w", err)
	}
	out, err := s.Query(ctx, o.request(ch.Root, rv))
	if err != nil {
		return err
	}
	r := out.Render(o.FilesOnly, o.Explain)
	r.Explain = fmt.Sprintf("== change\n%s\n%s%s", ch.What, rep.Summary(), r.Explain)
	return o.print(io, r)
}

// request turns the mapped change into an engine request (see
// engine.ReviewRequest, which sets the query and turns @url fetching off)
// with the expand flags' budget, format and tuning.
func (o *diffOptions) request(root string, rv engine.Review) engine.Request {
	req := o.expandOptions.request(root)
	req.Ranker = "" // a review ranks by its kind (expand.RankerFor), whatever --ranker says
	return engine.ReviewRequest(req, rv)
}

// fromGit asks git for the change the flags name (diffmode.ReadChange),
// and words its refusals for the command line.
func (o *diffOptions) fromGit(ctx context.Context, root string) (*diffmode.ChangeSet, error) {
	ch, err := diffmode.ReadChange(ctx, root, diffmode.ChangeSpec{Base: o.Base, Head: o.Head, Staged: o.Staged, Paths: o.Paths})
	var rev *diffmode.RevisionError
	switch {
	case errors.Is(err, diffmode.ErrNotGit):
		return nil, fmt.Errorf("diff needs a git repository at %s (or pass --root); to review another diff, pipe it: git diff | ctxexpand diff -", root)
	case errors.Is(err, diffmode.ErrNoCommits):
		return nil, fmt.Errorf("%v; commit first, or pipe a diff: git diff --cached | ctxexpand diff -", err)
	case errors.As(err, &rev):
		return nil, usageError{rev.Err}
	}
	return ch, err
}

// writeEmpty writes a bundle with no files for a change with no files
// (engine.EmptyReview), so that a CI job still gets a well-formed
// document.
func (o *diffOptions) writeEmpty(ctx context.Context, io *IO, ch *diffmode.ChangeSet) error {
	note := "no changes in " + ch.What
	notes := append(append([]string(nil), ch.Notes...), note)
	if !o.Quiet {
		for _, n := range notes {
			fmt.Fprintf(io.Err, "note: %s\n", n)
		}
	}
	if o.FilesOnly {
		return o.write(io, nil)
	}
	payload, err := engine.EmptyReview(ctx, o.expandOptions.request(ch.Root), ch, notes)
	if err != nil {
		return flagError(err)
	}
	return o.write(io, payload)
}

// write sends the payload to --output or stdout.
func (o *diffOptions) write(io *IO, payload []byte) error {
	return writeOutput(io, o.Output, payload)
}
