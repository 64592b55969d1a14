package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

type benchOptions struct {
	Dataset  string
	Repos    string
	WorkDir  string
	Limit    int
	PerRepo  int
	Langs    []string
	RepoSel  []string
	Jobs     int
	JSONOut  string
	ChartOut string
	Rankers  []string
	Timeout  time.Duration
	Dump     string
	CacheDir string
	// TextWeights is a JSON file of named query.TextWeights to compare.
	TextWeights string
	// Replay is a directory of feature dumps to re-rank offline, with
	// Model (a model file; default the shipped one).
	Replay string
	Model  string
	// NoHistory runs the pipeline rankers without version-control
	// history.
	NoHistory bool
}

func newBenchCmd(io *IO) *cobra.Command {
	o := &benchOptions{Jobs: 1}
	cmd := &cobra.Command{
		Use:   "bench --dataset FILE --repos DIR",
		Short: "Score ranking quality on real fix commits against the BM25 baseline",
		Long: `bench runs every instance of a dataset of fix commits (JSON lines: query, base
commit, gold files) on a checkout of its base commit with no future history, and
scores the rankers on the same instances: hit@k, rec@k, all@k for k = 1, 3, 5, 10,
MRR, and inc@B (gold files whose content is in a bundle of B tokens). Rankers:
bm25 (the baseline), ctxexpand (auto strategy, the default ranker, loading each
checkout cold), ctxexpand-learned and ctxexpand-hand (auto strategy, the learned
and the hand-weighted ranker; the default run has the one that is not the
default) and ctxexpand-<strategy> for each strategy forced.

Review instances (kind "diff", benchmarks/data/diff-dev.jsonl) are run as
ctxexpand diff runs them: the checkout is the base with the change to the
instance's diff_files left uncommitted, the ctxexpand rankers review that
change, and test files count in the scores. The names ranker is their
baseline: the test files named after the changed files (foo_test.go,
tests/foo.rs); it ranks nothing for other instances.

--dump-features DIR writes, per instance, every candidate file's features and
whether the fix changed it (training data for the learned ranker; see
benchmarks/README.md). It skips bundles, reuses one checkout per repository
moved from commit to commit with an on-disk index (--cache-dir, default
WORK/index), and resumes: instances already dumped in DIR are skipped.

--text-weights FILE (a JSON object, name → query.TextWeights) runs bm25 and
one ctxexpand-tw-NAME ranker per set of weights for reading issue-shaped
queries, loading each commit once, as a dump does, and without bundles: how
the weights are fitted on benchmarks/data/issues-train.jsonl.

--replay DIR re-ranks the feature dumps under DIR offline, with no repository,
checkout or analysis (seconds for a thousand instances): bm25 and hand order
the dumped candidates by their features, learned by the model (--model FILE,
default the shipped one) as the learned ranker does, learned-margin by the
model's margin alone, and ctxexpand as the default ranker does (by the query's
kind). --dataset, when given, keeps the dumps of its instances; --lang and
--repo filter too. Gold files that were not candidates count as missed.

Every report ends with paired differences against ctxexpand (or the first
ranker): the mean difference per instance, its 95% bootstrap interval, wins and
losses, and the sign test's p-value.

Repositories are read from DIR/OWNER+NAME/repo (git directories with history);
checkouts are cached in --work and reused across runs.`,
		Example: `  ctxexpand bench --dataset bench/dev.jsonl --repos ~/bench-repos --lang go --limit 20
  ctxexpand bench --dataset dev.jsonl --repos repos --json results.json --chart recall.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Dataset, "dataset", "", "JSON-lines dataset of fix commits (required)")
	f.StringVar(&o.Repos, "repos", "", "directory holding OWNER+NAME/repo git directories (required)")
	f.StringVar(&o.WorkDir, "work", "", "checkout cache (default: the user cache directory)")
	f.IntVar(&o.Limit, "limit", 0, "run only the first N instances (after the other filters)")
	f.IntVar(&o.PerRepo, "per-repo", 0, "run at most N instances of each repository, spread evenly over its instances")
	f.StringSliceVar(&o.Langs, "lang", nil, "only these languages: go, rust")
	f.StringSliceVar(&o.RepoSel, "repo", nil, "only these repositories (owner/name)")
	f.IntVar(&o.Jobs, "jobs", 1, "instances run at once")
	f.StringVar(&o.JSONOut, "json", "bench-results.json", "write per-instance results here (\"\" to skip)")
	f.StringVar(&o.ChartOut, "chart", "bench-recall.png", "write the recall chart here (\"\" to skip)")
	f.StringSliceVar(&o.Rankers, "rankers", nil, "rankers to run (default: bm25, ctxexpand and one per strategy)")
	f.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "time limit for one ranker on one instance")
	f.StringVar(&o.Dump, "dump-features", "", "write each instance's candidate features and labels under this directory (training data)")
	f.StringVar(&o.CacheDir, "cache-dir", "", "on-disk index for --dump-features and --text-weights (default: WORK/index)")
	f.StringVar(&o.TextWeights, "text-weights", "", "compare these named query.TextWeights (JSON object) on the dataset")
	f.StringVar(&o.Replay, "replay", "", "re-rank the feature dumps under this directory offline (no repositories needed)")
	f.StringVar(&o.Model, "model", "", "ranking model file for --replay (default: the shipped model)")
	f.BoolVar(&o.NoHistory, "no-history", false, "run the ctxexpand rankers without version-control history (as on a tarball or a depth-1 clone)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *benchOptions) rankers() ([]eval.Ranker, error) {
	all, order := engine.Rankers(o.NoHistory, max(2, o.Jobs*2))
	if len(o.Rankers) > 0 {
		order = o.Rankers
	}
	return pickRankers(all, order, "")
}

// pickRankers returns the rankers of all named by names, in that order;
// an unknown name is a usage error that lists the known ones, with
// forWhat (" for --replay") after the name.
func pickRankers[R any](all map[string]R, names []string, forWhat string) ([]R, error) {
	var out []R
	for _, n := range names {
		r, ok := all[n]
		if !ok {
			var known []string
			for k := range all {
				known = append(known, k)
			}
			return nil, usagef("unknown ranker %q%s; choose from %s", n, forWhat, strings.Join(sortedStrings(known), ", "))
		}
		out = append(out, r)
	}
	return out, nil
}

func (o *benchOptions) run(ctx context.Context, io *IO) error {
	if o.Replay != "" {
		return o.replay(io)
	}
	if o.Model != "" {
		return usagef("--model is for --replay")
	}
	if o.Dataset == "" || o.Repos == "" {
		return usagef("bench needs --dataset FILE and --repos DIR")
	}
	if o.WorkDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory for checkouts; pass --work DIR: %w", err)
		}
		o.WorkDir = filepath.Join(dir, "ctxexpand", "bench")
	}
	var rankers []eval.Ranker
	var err error
	rolling := o.Dump != "" || o.TextWeights != ""
	switch {
	case o.Dump != "" && o.TextWeights != "":
		return usagef("--dump-features and --text-weights each run their own rankers; pass one")
	case o.Dump != "":
		if rankers, err = o.dumpRankers(); err != nil {
			return err
		}
	case o.TextWeights != "":
		if rankers, err = o.weightRankers(); err != nil {
			return err
		}
	default:
		if rankers, err = o.rankers(); err != nil {
			return err
		}
	}
	var decls eval.DeclSource
	if !rolling {
		for _, r := range rankers {
			if pr, ok := r.(*engine.Ranker); ok {
				decls = pr // function-level gold from the facts it loaded
				break
			}
		}
	}
	rep, err := eval.Run(ctx, eval.Options{
		Decls:     decls,
		DumpDir:   o.Dump,
		Rolling:   rolling,
		NoBundles: rolling,
		Dataset:   o.Dataset,
		Filter:    eval.Filter{Langs: o.Langs, Repos: o.RepoSel, Limit: o.Limit, PerRepo: o.PerRepo},
		ReposDir:  o.Repos,
		WorkDir:   o.WorkDir,
		Jobs:      o.Jobs,
		Timeout:   o.Timeout,
		Progress:  io.Err,
		Terminal:  io.ErrIsTerminal,
	}, rankers)
	if err != nil {
		return err
	}
	if err := rep.WriteMarkdown(io.Out); err != nil {
		return err
	}
	if o.JSONOut != "" {
		if err := writeFileWith(o.JSONOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	if o.ChartOut != "" {
		if err := writeFileWith(o.ChartOut, rep.WriteChart); err != nil {
			return err
		}
	}
	return nil
}

// weightRankers are the rankers of --text-weights: bm25 and the pipeline
// once per named set of weights, all sharing one session per commit loaded
// through the on-disk index.
func (o *benchOptions) weightRankers() ([]eval.Ranker, error) {
	if len(o.Rankers) > 0 {
		return nil, usagef("--text-weights runs its own rankers; leave out --rankers")
	}
	data, err := os.ReadFile(o.TextWeights)
	if err != nil {
		return nil, fmt.Errorf("reading --text-weights: %w", err)
	}
	var sets map[string]query.TextWeights
	if err := json.Unmarshal(data, &sets); err != nil || len(sets) == 0 {
		return nil, usagef("--text-weights %s: want a JSON object of named query.TextWeights (%v)", o.TextWeights, err)
	}
	st, err := o.openIndex()
	if err != nil {
		return nil, err
	}
	return engine.TextWeightRankers(st, o.NoHistory, sets), nil
}

func (o *benchOptions) openIndex() (*index.Store, error) {
	dir := o.CacheDir
	if dir == "" {
		dir = filepath.Join(o.WorkDir, "index")
	}
	return index.Open(index.Options{Dir: dir})
}

// dumpRankers are the rankers of a feature dump: the pipeline with the
// hand-weighted ranker (the features do not depend on the model), loading
// through an on-disk index so that each commit of a repository costs only
// what changed since the one before.
func (o *benchOptions) dumpRankers() ([]eval.Ranker, error) {
	if len(o.Rankers) > 0 {
		return nil, usagef("--dump-features runs its own ranker; leave out --rankers")
	}
	st, err := o.openIndex()
	if err != nil {
		return nil, err
	}
	return []eval.Ranker{engine.DumpRanker(st, o.NoHistory)}, nil
}

// replayRankers are the rankers --replay runs, by name.
func (o *benchOptions) replayRankers() ([]eval.ReplayRanker, error) {
	var model *learn.Model
	var err error
	if o.Model != "" {
		data, rerr := os.ReadFile(o.Model)
		if rerr != nil {
			return nil, fmt.Errorf("reading --model: %w", rerr)
		}
		model, err = learn.Parse(data)
	} else {
		model, err = learn.Default()
	}
	if err != nil || model == nil {
		return nil, fmt.Errorf("no ranking model to replay (pass --model FILE): %v", err)
	}
	all, names := engine.ReplayRankers(model)
	if len(o.Rankers) > 0 {
		names = o.Rankers
	}
	return pickRankers(all, names, " for --replay")
}

// replay re-ranks stored feature dumps (eval.Replay) and reports.
func (o *benchOptions) replay(io *IO) error {
	if o.Dump != "" || o.TextWeights != "" || o.Repos != "" {
		return usagef("--replay reads dumps only; leave out --repos, --dump-features and --text-weights")
	}
	rankers, err := o.replayRankers()
	if err != nil {
		return err
	}
	keep, err := o.replayFilter()
	if err != nil {
		return err
	}
	recs, err := eval.ReadDumps(o.Replay, keep)
	if err != nil {
		return err
	}
	rep, err := eval.Replay(recs, rankers)
	if err != nil {
		return err
	}
	rep.Dataset = o.Dataset
	if err := rep.WriteMarkdown(io.Out); err != nil {
		return err
	}
	if o.JSONOut != "" {
		if err := writeFileWith(o.JSONOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	return nil
}

// replayFilter selects dumps by --dataset, --lang, --repo and --limit.
func (o *benchOptions) replayFilter() (func(*eval.DumpRecord) bool, error) {
	var ids map[string]bool
	if o.Dataset != "" {
		insts, err := eval.LoadDataset(o.Dataset)
		if err != nil {
			return nil, err
		}
		ids = map[string]bool{}
		for _, in := range insts {
			ids[in.ID] = true
		}
	}
	return eval.KeepDumps(ids, eval.Filter{Langs: o.Langs, Repos: o.RepoSel, Limit: o.Limit}), nil
}
