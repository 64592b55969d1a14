package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/eval"
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
	// Model (a model file; default the shipped one) and QuestionModel for
	// questions (a model file, "none", or empty for the shipped one).
	Replay        string
	Model         string
	QuestionModel string
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
	f.StringVar(&o.QuestionModel, "question-model", "", "ranking model file that reads questions in --replay (default: the shipped one; \"none\" replays a build without one)")
	f.BoolVar(&o.NoHistory, "no-history", false, "run the ctxexpand rankers without version-control history (as on a tarball or a depth-1 clone)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

// validate refuses the combinations of flags that make no sense: each
// mode (a replay, a dump, a text-weights run, a quality run) has its own.
func (o *benchOptions) validate() error {
	switch {
	case o.Replay != "" && (o.Dump != "" || o.TextWeights != "" || o.Repos != ""):
		return usagef("--replay reads dumps only; leave out --repos, --dump-features and --text-weights")
	case o.Replay != "":
		return nil
	case o.Model != "" || o.QuestionModel != "":
		return usagef("--model and --question-model are for --replay")
	case o.Dataset == "" || o.Repos == "":
		return usagef("bench needs --dataset FILE and --repos DIR")
	}
	return nil
}

// run maps the flags onto engine.BenchOptions (reading the files they
// name), runs engine.Bench and writes its report: markdown on stdout,
// then --json and (but for a replay) --chart.
func (o *benchOptions) run(ctx context.Context, io *IO) error {
	if err := o.validate(); err != nil {
		return err
	}
	opts := engine.BenchOptions{
		Dataset: o.Dataset, ReposDir: o.Repos, WorkDir: o.WorkDir, Jobs: o.Jobs, Timeout: o.Timeout,
		Filter:  eval.Filter{Langs: o.Langs, Repos: o.RepoSel, Limit: o.Limit, PerRepo: o.PerRepo},
		Rankers: o.Rankers, NoHistory: o.NoHistory, DumpDir: o.Dump, CacheDir: o.CacheDir, ReplayDir: o.Replay,
		Progress: io.Err, Terminal: io.ErrIsTerminal,
	}
	forWhat := ""
	if o.Replay != "" {
		forWhat = " for --replay"
		model, err := o.model()
		if err != nil {
			return err
		}
		opts.Model = model
		if opts.QuestionModel, err = o.questionModel(); err != nil {
			return err
		}
	} else if err := o.checkoutFlags(&opts); err != nil {
		return err
	}
	rep, err := engine.Bench(ctx, opts)
	var unknown *engine.UnknownRankerError
	if errors.As(err, &unknown) {
		return usagef("unknown ranker %q%s; choose from %s", unknown.Name, forWhat, strings.Join(unknown.Known, ", "))
	}
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
	if o.ChartOut != "" && o.Replay == "" {
		if err := writeFileWith(o.ChartOut, rep.WriteChart); err != nil {
			return err
		}
	}
	return nil
}

// checkoutFlags completes the options of a run on checkouts: the
// default --work, and the weights of --text-weights; --dump-features and
// --text-weights each run their own rankers.
func (o *benchOptions) checkoutFlags(opts *engine.BenchOptions) error {
	if o.WorkDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory for checkouts; pass --work DIR: %w", err)
		}
		opts.WorkDir = filepath.Join(dir, "ctxexpand", "bench")
	}
	switch {
	case o.Dump != "" && o.TextWeights != "":
		return usagef("--dump-features and --text-weights each run their own rankers; pass one")
	case o.Dump != "" && len(o.Rankers) > 0:
		return usagef("--dump-features runs its own ranker; leave out --rankers")
	case o.TextWeights != "" && len(o.Rankers) > 0:
		return usagef("--text-weights runs its own rankers; leave out --rankers")
	case o.TextWeights != "":
		data, err := os.ReadFile(o.TextWeights)
		if err != nil {
			return fmt.Errorf("reading --text-weights: %w", err)
		}
		if err := json.Unmarshal(data, &opts.TextWeights); err != nil || len(opts.TextWeights) == 0 {
			return usagef("--text-weights %s: want a JSON object of named query.TextWeights (%v)", o.TextWeights, err)
		}
	}
	return nil
}

// model is the ranking model of --replay: --model, or the shipped one.
func (o *benchOptions) model() (*learn.Model, error) {
	model, err := readModel("--model", o.Model, learn.Default)
	if err == nil && model == nil {
		err = errors.New("this build ships none")
	}
	if err != nil {
		return nil, fmt.Errorf("no ranking model to replay (pass --model FILE): %v", err)
	}
	return model, nil
}

// questionModel is the model that reads questions in --replay:
// --question-model, or the shipped one; nil for "none" or when none
// ships.
func (o *benchOptions) questionModel() (*learn.Model, error) {
	if o.QuestionModel == "none" {
		return nil, nil
	}
	return readModel("--question-model", o.QuestionModel, learn.Question)
}

// readModel parses the model file a flag names, or returns the shipped
// model when it names none.
func readModel(flag, file string, shipped func() (*learn.Model, error)) (*learn.Model, error) {
	if file == "" {
		return shipped()
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", flag, err)
	}
	m, err := learn.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, file, err)
	}
	return m, nil
}
