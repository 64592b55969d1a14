package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/engine/pack"
	"github.com/ctxexpand/ctxexpand/index"
)

// indexOptions are the flags of the index command.
type indexOptions struct {
	Root     string
	Config   string
	Stats    bool
	Quiet    bool
	Timeout  time.Duration
	Pack     string
	FromPack string
	Cache    cacheOptions
	// ExportSCIP names a file to write the analysis to as a SCIP index.
	ExportSCIP string
}

func newIndexCmd(io *IO) *cobra.Command {
	o := &indexOptions{}
	cmd := &cobra.Command{
		Use:   "index [--root DIR] [--from-pack FILE|URL] [--pack FILE] [--export-scip FILE] [--stats]",
		Short: "Build the on-disk index of a repository ahead of queries, or show what it holds",
		Long: `index analyses the repository and stores the result in the on-disk index, so
that the next query starts warm: useful in CI, where the index directory can be
cached between jobs (--cache-dir or $` + cacheDirEnv + `).

Every query keeps the index up to date by itself: only what changed since the
last run is analysed again. With --stats, index prints what the index holds
(entries and sizes by kind) and the hit rates of the repository's last run,
without analysing anything.

--pack FILE then writes the index of the tree as it is into one portable,
versioned, checksummed file, to build once (in CI, on the default branch) and
use elsewhere. --from-pack FILE or URL first seeds the index from such a file
(a URL is fetched under the rules of @url: http or https, public addresses
only): when the tree, the settings and the ctxexpand version are the pack's,
the next query analyses nothing; when only the tree differs (a pull request, a
developer's edits), the pack's per-file and per-package records are used and
only what changed is analysed. A pack of another ctxexpand version or another
repository is refused with a note saying why, and a missing or damaged one is
a note too: the run goes on without it. See docs/ci.md.`,
		Example: `  ctxexpand index
  ctxexpand index --root ~/src/project --cache-dir .ctxexpand-cache
  ctxexpand index --pack ctxexpand.pack                  # in CI, on the default branch
  ctxexpand index --from-pack ctxexpand.pack             # in pull-request jobs, on laptops
  ctxexpand index --from-pack https://ci.example.com/ctxexpand.pack
  ctxexpand index --stats`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Root, "root", "", "repository root (default: nearest ancestor of the working directory holding go.mod, Cargo.toml, .git or index.scip)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .ctxexpand.toml at the root); its ignore rules decide what is indexed, as for queries")
	f.BoolVar(&o.Stats, "stats", false, "show the index's entries, sizes and the last run's hit rates instead of indexing")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no notes or progress on stderr")
	f.DurationVar(&o.Timeout, "timeout", 0, "stop after this long; what was indexed is kept only when the analysis finished")
	f.StringVar(&o.Pack, "pack", "", "after indexing, write the index of this tree to `FILE`, a portable pack")
	f.StringVar(&o.FromPack, "from-pack", "", "before indexing, seed the index from a pack `FILE` or http(s) URL")
	f.StringVar(&o.ExportSCIP, "export-scip", "", "also write the Go and Rust analysis as a SCIP index to this file (for other tools)")
	o.Cache.addFlags(f)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *indexOptions) run(ctx context.Context, io *IO) error {
	if o.Cache.Off && o.ExportSCIP == "" {
		return usagef("--no-cache leaves nothing for index to do")
	}
	if o.Cache.Off && (o.Pack != "" || o.FromPack != "") {
		return usagef("--pack and --from-pack read and write the on-disk index; drop --no-cache")
	}
	if o.Stats && (o.Pack != "" || o.FromPack != "") {
		return usagef("--stats shows the index; it cannot be combined with --pack or --from-pack")
	}
	root, err := resolveRoot(o.Root)
	if err != nil {
		return err
	}
	run := o.Cache.start(io, o.Quiet)
	if run.Store == nil && !o.Cache.Off {
		return fmt.Errorf("the index could not be opened")
	}
	if o.Stats {
		u, err := run.Store.Usage()
		if err != nil {
			return err
		}
		var last *index.Run
		if r, ok := run.Store.LastRun(root); ok {
			last = &r
		}
		fmt.Fprintf(io.Out, "repository: %s\n", root)
		index.WriteReport(io.Out, u, last)
		return nil
	}
	ctx, cancel := withTimeout(ctx, o.Timeout)
	defer cancel()
	lo, err := indexLoadOptions(io, root, o.Config)
	if err != nil {
		return err
	}
	run.wire(&lo)
	if o.FromPack != "" {
		o.seed(ctx, run, root, lo)
	}
	s, err := engine.Open(ctx, root, lo)
	if err == nil {
		s.Close() // the index is this command's output
	}
	run.loaded()
	if err != nil {
		return err
	}
	run.finish(root)
	outcome := indexOutcome(run.Load().Snapshot)
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
		if o.Pack != "" {
			run.Notice("no pack written: the analysis was cut short by the time limit")
		}
		return errPartial
	}
	if o.Pack != "" {
		return o.writePack(ctx, io, root, lo)
	}
	return nil
}

// indexLoadOptions are the load options of a run at root whose index
// entries queries share: those the configuration (file, or
// .ctxexpand.toml at the root) gives a query (applyConfig).
func indexLoadOptions(io *IO, root, configFile string) (engine.LoadOptions, error) {
	eo := newExpandOptions()
	eo.Config = configFile
	_, lo, err := eo.applyConfig(io, root)
	return lo, err
}

// seed adds what the pack says to the index (pack.SeedFromFile).
// Whatever goes wrong (no file, a damaged or refused pack, a failed
// download) is a note: the run goes on without the pack.
func (o *indexOptions) seed(ctx context.Context, run *indexedRun, root string, lo engine.LoadOptions) {
	start := time.Now()
	res, size, err := pack.SeedFromFile(ctx, root, lo, o.FromPack)
	if err != nil {
		run.Notice(fmt.Sprintf("pack %s not used: %s", o.FromPack, strings.TrimPrefix(err.Error(), pack.ErrRefused.Error()+": ")))
		return
	}
	what := fmt.Sprintf("%d records", res.Records)
	if res.Snapshot {
		what = "its snapshot and " + what
	}
	msg := fmt.Sprintf("pack %s (%s%s, %s): took %s in %v", o.FromPack, humanSize(size), packCommit(res.Info.Commit),
		res.Info.Created.Format("2006-01-02 15:04 UTC"), what, time.Since(start).Round(time.Millisecond))
	if !res.Snapshot {
		msg += "; not its snapshot: " + res.Reason
	}
	run.Notice(msg)
}

// writePack writes the pack (pack.WriteFile: a reader never sees
// half a pack) and says what it wrote.
func (o *indexOptions) writePack(ctx context.Context, io *IO, root string, lo engine.LoadOptions) error {
	info, size, err := pack.WriteFile(ctx, root, lo, o.Pack)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "pack: %s, %s%s, %d input files\n", o.Pack, humanSize(size), packCommit(info.Commit), len(info.Inputs))
	return nil
}

func packCommit(commit string) string {
	if commit == "" {
		return ""
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return ", commit " + commit
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
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
