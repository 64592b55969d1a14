package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/tokenize"
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

// change is what diff mode found to review, before loading.
type change struct {
	diff     *diffmode.Diff
	sources  diffmode.Sources
	loadRoot string // where the new side is on disk
	commit   string // the new side's commit, when it is one
	subjects []string
	what     string // "the working tree against HEAD (4d4e02d)"
	notes    []string
	cleanup  func()
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
	g := &diffmode.Git{Dir: root}
	var ch *change
	if o.Stdin {
		ch, err = o.fromStdin(ctx, io, g, root)
	} else {
		ch, err = o.fromGit(ctx, g, root)
	}
	if ch != nil && ch.cleanup != nil {
		defer ch.cleanup()
	}
	if err != nil {
		if ctx.Err() != nil {
			// Whatever git said as it was stopped would mislead ("no
			// commits yet", "signal: killed").
			return fmt.Errorf("the time limit (--timeout %v) passed before the change was read; raise --timeout", o.Timeout)
		}
		return err
	}
	if len(ch.diff.Files) == 0 {
		return o.writeEmpty(io, ch)
	}

	load := engine.LoadOptions{Logger: io.Log}
	var run *indexedRun
	if ch.loadRoot == root {
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
	s, err := engine.Open(ctx, ch.loadRoot, load)
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
	if ch.commit != "" {
		s.FixedCommit = ch.commit
	}
	rep, err := diffmode.Map(ctx, s.Facts, ch.diff, ch.sources)
	if err != nil && ctx.Err() != nil {
		// The time limit: the files mapped so far are followed, the rest
		// are still shown in the diff.
		rep.Notes = append(rep.Notes, "the time limit passed while mapping the diff to symbols; the files after that point are shown but not followed")
		s.Facts.Partial = true // the session serves this run only: its output is partial
	} else if err != nil {
		return fmt.Errorf("mapping the diff to symbols: %w", err)
	}
	out, err := s.Query(ctx, o.request(ch, rep))
	if err != nil {
		return err
	}
	r := out.Render(o.FilesOnly, o.Explain)
	r.Explain = fmt.Sprintf("== change\n%s\n%s%s", ch.what, rep.Summary(), r.Explain)
	return o.print(io, r)
}

// request turns the mapped change into an engine request (see
// engine.ReviewRequest, which sets the query and turns @url fetching off)
// with the expand flags' budget, format and tuning.
func (o *diffOptions) request(ch *change, rep *diffmode.Report) engine.Request {
	req := o.expandOptions.request(ch.loadRoot)
	req.Ranker = "" // a review ranks by its kind (expand.RankerFor), whatever --ranker says
	return engine.ReviewRequest(req, engine.Review{Diff: ch.diff, Report: rep, What: ch.what, Subjects: ch.subjects, Notes: ch.notes})
}

func parseLimits() diffmode.Options { return diffmode.Options{} }

// fromStdin reads a unified diff from standard input. Bases come from
// the blobs its index lines name, when root is a git repository that has
// them, else from undoing the hunks on the working tree.
func (o *diffOptions) fromStdin(ctx context.Context, io *IO, g *diffmode.Git, root string) (*change, error) {
	d, err := diffmode.Parse(io.In, parseLimits())
	if err != nil {
		return nil, diffError("the diff on stdin", err)
	}
	read := func(_ context.Context, p string) ([]byte, error) { return analyze.ReadSource(root, p, 0) }
	ch := &change{diff: d, loadRoot: root, what: "the diff read from stdin", sources: diffmode.ReverseSource(read)}
	if g.Check(ctx) == nil {
		ch.sources = diffmode.FirstOf(diffmode.BlobSource(g), diffmode.ReverseSource(read))
		if prefix, err := g.Prefix(ctx); err == nil && prefix != "" {
			if n := d.Relative(prefix); n > 0 {
				ch.notes = append(ch.notes, fmt.Sprintf("%d files of the diff lie outside %s and were left out", n, prefix))
			}
		}
	}
	if d.CRLF {
		ch.notes = append(ch.notes, "the diff has CRLF line endings; they were read as LF")
	}
	return ch, nil
}

// fromGit asks git for the change the flags name.
func (o *diffOptions) fromGit(ctx context.Context, g *diffmode.Git, root string) (*change, error) {
	if err := g.Check(ctx); err != nil {
		if errors.Is(err, diffmode.ErrNotGit) {
			return nil, fmt.Errorf("diff needs a git repository at %s (or pass --root); to review another diff, pipe it: git diff | ctxexpand diff -", root)
		}
		return nil, err
	}
	ch := &change{loadRoot: root}
	var head string
	var err error
	if o.Head != "" {
		if head, err = g.Commit(ctx, o.Head); err != nil {
			return nil, usageError{err}
		}
	}
	against := "HEAD"
	if head != "" {
		against = head
	}
	var base string
	if o.Base != "" {
		b, err := g.Commit(ctx, o.Base)
		if err != nil {
			return nil, usageError{err}
		}
		base = b
		if mb, err := g.MergeBase(ctx, b, against); err == nil && mb != "" {
			base = mb
		} else {
			ch.notes = append(ch.notes, fmt.Sprintf("%s and %s have no merge base here (a shallow clone?); comparing with %s itself — fetch full history (fetch-depth: 0) for a review of the branch alone", o.Base, orHead(o.Head), o.Base))
		}
	} else {
		if base, err = g.Commit(ctx, "HEAD"); err != nil {
			return nil, fmt.Errorf("the repository has no commits yet, so there is nothing to compare with; commit first, or pipe a diff: git diff --cached | ctxexpand diff -")
		}
	}
	raw, err := g.Diff(ctx, diffmode.Range{Base: base, Head: head, Staged: o.Staged, Paths: o.Paths})
	if err != nil {
		return nil, err
	}
	d, err := diffmode.ParseBytes(raw, parseLimits())
	if err != nil {
		return nil, diffError("git's diff", err)
	}
	ch.diff = d
	ch.sources = diffmode.RevSource(g, base)
	switch {
	case head != "":
		ch.what = fmt.Sprintf("%s (%s) against %s (%s)", o.Head, short(head), orHead(o.Base), short(base))
		ch.commit = head
		ch.subjects, _ = g.Subjects(ctx, base, head, 10)
		same, err := g.WorkTreeMatches(ctx, head)
		if err != nil {
			return ch, err
		}
		if !same {
			dir, err := os.MkdirTemp("", "ctxexpand-head-*")
			if err != nil {
				return ch, fmt.Errorf("making a directory for %s: %w", o.Head, err)
			}
			ch.cleanup = func() { os.RemoveAll(dir) }
			if err := g.Extract(ctx, head, dir); err != nil {
				return ch, err
			}
			ch.loadRoot = dir
		}
	case o.Staged:
		ch.what = fmt.Sprintf("the staged changes against %s (%s)", orHead(o.Base), short(base))
		if len(d.Files) > 0 {
			var paths []string
			for i := range d.Files {
				if p := d.Files[i].NewPath; p != "" {
					paths = append(paths, p)
				}
			}
			if dirty, err := g.Unstaged(ctx, paths); err == nil && dirty {
				ch.notes = append(ch.notes, "some staged files have further unstaged changes; symbols are located in the working tree, so their lines may be off")
			}
		}
	default:
		ch.what = fmt.Sprintf("the working tree against %s (%s)", orHead(o.Base), short(base))
		if o.Base != "" {
			ch.subjects, _ = g.Subjects(ctx, base, "HEAD", 10)
		}
		if un, err := g.Untracked(ctx); err == nil && len(un) > 0 {
			ch.notes = append(ch.notes, fmt.Sprintf("%d untracked files are not in the diff; git add -N them to include them", len(un)))
		}
	}
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
	if errors.Is(err, diffmode.ErrMalformed) {
		return fmt.Errorf("reading %s: %w; pass a unified diff as git diff writes it", what, err)
	}
	return fmt.Errorf("reading %s: %w", what, err)
}

// writeEmpty writes a bundle with no files for a change with no files,
// so that a CI job still gets a well-formed document.
func (o *diffOptions) writeEmpty(io *IO, ch *change) error {
	note := "no changes in " + ch.what
	notes := append(append([]string(nil), ch.notes...), note)
	if !o.Quiet {
		for _, n := range notes {
			fmt.Fprintf(io.Err, "note: %s\n", n)
		}
	}
	if o.FilesOnly {
		return o.write(io, nil)
	}
	format, err := bundle.ParseFormat(o.Format)
	if err != nil {
		return usageError{err}
	}
	counter, err := tokenize.New(o.Tokenizer, tokenize.WithMargin(o.Margin))
	if err != nil {
		return usageError{err}
	}
	res, err := bundle.Build(context.Background(), bundle.Request{
		Query:    "review the change",
		Strategy: o.Strategy,
		Commit:   ch.commit,
		Root:     ch.loadRoot,
		Budget:   o.Budget,
		Counter:  counter,
		Format:   format,
		Notes:    notes,
	})
	if err != nil {
		return err
	}
	return o.write(io, res.Output)
}

// write sends the payload to --output or stdout.
func (o *diffOptions) write(io *IO, payload []byte) error {
	return writeOutput(io, o.Output, payload)
}
