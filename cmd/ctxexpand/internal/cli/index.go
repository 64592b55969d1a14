package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
	"github.com/ctxexpand/ctxexpand/index"
)

// indexOptions are the flags of the index command.
type indexOptions struct {
	Root    string
	Stats   bool
	Quiet   bool
	Timeout time.Duration
	Cache   cacheOptions
	// ExportSCIP names a file to write the analysis to as a SCIP index.
	ExportSCIP string
}

func newIndexCmd(io *IO) *cobra.Command {
	o := &indexOptions{}
	cmd := &cobra.Command{
		Use:   "index [--root DIR] [--stats]",
		Short: "Build the on-disk index of a repository ahead of queries, or show what it holds",
		Long: `index analyses the repository and stores the result in the on-disk index, so
that the next query starts warm: useful in CI, where the index directory can be
cached between jobs (--cache-dir or $` + cacheDirEnv + `).

Every query keeps the index up to date by itself: only what changed since the
last run is analysed again. With --stats, index prints what the index holds
(entries and sizes by kind) and the hit rates of the repository's last run,
without analysing anything.`,
		Example: `  ctxexpand index
  ctxexpand index --root ~/src/project --cache-dir .ctxexpand-cache
  ctxexpand index --stats`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Root, "root", "", "repository root (default: nearest ancestor of the working directory holding go.mod, Cargo.toml, .git or index.scip)")
	f.BoolVar(&o.Stats, "stats", false, "show the index's entries, sizes and the last run's hit rates instead of indexing")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no notes or progress on stderr")
	f.DurationVar(&o.Timeout, "timeout", 0, "stop after this long; what was indexed is kept only when the analysis finished")
	f.StringVar(&o.ExportSCIP, "export-scip", "", "also write the Go and Rust analysis as a SCIP index to this file (for other tools)")
	o.Cache.addFlags(f)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *indexOptions) run(ctx context.Context, io *IO) error {
	if o.Cache.Off && o.ExportSCIP == "" {
		return usagef("--no-cache leaves nothing for index to do")
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	run := o.Cache.start(io, o.Quiet)
	if run.st == nil && !o.Cache.Off {
		return fmt.Errorf("the index could not be opened")
	}
	if o.Stats {
		u, err := run.st.Usage()
		if err != nil {
			return err
		}
		var last *index.Run
		if r, ok := run.st.LastRun(root); ok {
			last = &r
		}
		fmt.Fprintf(io.Out, "repository: %s\n", root)
		index.WriteReport(io.Out, u, last)
		return nil
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	var lo pipeline.LoadOptions
	lo.Logger = io.Log
	run.wire(&lo)
	s, err := pipeline.Open(ctx, root, lo)
	if err == nil {
		s.Close() // the index is this command's output
	}
	run.loaded()
	if err != nil {
		return err
	}
	run.finish(root)
	outcome := indexOutcome(run.load.Snapshot)
	if o.Cache.Off {
		outcome = "analysed (not stored: --no-cache)"
	}
	fmt.Fprintf(io.Out, "%s: %s; %s in %v\n", root, s.Facts.Summary(), outcome, s.LoadTime.Round(time.Millisecond))
	if o.ExportSCIP != "" {
		if err := exportSCIP(o.ExportSCIP, s.Facts, io); err != nil {
			return err
		}
	}
	if s.Facts.Partial {
		return errPartial
	}
	return nil
}

func indexOutcome(snapshot string) string {
	switch snapshot {
	case "hit":
		return "already up to date"
	case "miss":
		return "indexed"
	}
	return "not stored (the analysis was cut short)"
}
