package engine

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// A benchmark run end to end, as ctxexpand bench makes it: the rankers
// of its mode picked by name (rankerset.go), eval's runner over the
// dataset's checkouts or eval's replay over stored feature dumps, and the
// report. The command maps its flags onto BenchOptions, refuses the
// combinations that make no sense, reads the files its flags name, and
// renders the report.

// BenchOptions configure Bench. The mode is chosen by what is set:
// ReplayDir re-ranks stored dumps offline; else DumpDir writes feature
// dumps, TextWeights compares sets of text weights, and neither runs a
// quality run of the rankers named by Rankers (default: those of
// Rankers, in its order). Set at most one of DumpDir, TextWeights and
// ReplayDir.
type BenchOptions struct {
	// Dataset is the JSON-lines file of instances (eval.LoadDataset); for
	// a replay, when set, only the dumps of its instances are kept.
	Dataset string
	// ReposDir holds the repositories as OWNER+NAME/repo; WorkDir caches
	// their checkouts across runs (eval.DefaultWorkDir is one).
	ReposDir string
	WorkDir  string
	// Filter selects the instances (or, for a replay, the dumps: PerRepo
	// does not apply to them).
	Filter eval.Filter
	// Jobs is how many instances run at once (0 means 1); Timeout bounds
	// one ranker on one instance (0: none).
	Jobs    int
	Timeout time.Duration
	// Rankers names the rankers to run, in order; empty means the mode's
	// default ones. A dump and a text-weights run have their own ranker
	// sets and ignore it. An unknown name is an *UnknownRankerError.
	Rankers []string
	// NoHistory runs the pipeline rankers without version-control
	// history.
	NoHistory bool
	// DumpDir, when set, receives each instance's candidate features and
	// labels (DumpRanker, eval.Options.DumpDir): training data.
	DumpDir string
	// TextWeights, when not empty, are the named sets of query weights to
	// compare (TextWeightRankers).
	TextWeights map[string]query.TextWeights
	// CacheDir is the on-disk index a dump or a text-weights run loads
	// commits through; empty means WorkDir/index.
	CacheDir string
	// ReplayDir, when set, holds the feature dumps to re-rank offline
	// (ReplayRankers) with Model, which must then be set, and with
	// QuestionModel for questions when set.
	ReplayDir     string
	Model         *learn.Model
	QuestionModel *learn.Model
	// Progress receives progress lines (nil: silent); Terminal says it is
	// a terminal (eval.Options).
	Progress io.Writer
	Terminal bool
}

// An UnknownRankerError is a name in BenchOptions.Rankers that the mode
// does not run; Known are the names it does, sorted.
type UnknownRankerError struct {
	Name  string
	Known []string
}

func (e *UnknownRankerError) Error() string {
	return fmt.Sprintf("unknown ranker %q; choose from %s", e.Name, strings.Join(e.Known, ", "))
}

// Bench runs the benchmark o asks for and returns its report. It fails as
// eval.Run and eval.Replay fail, on an unknown ranker name, and when the
// on-disk index of a dump or a text-weights run cannot be opened.
func Bench(ctx context.Context, o BenchOptions) (*eval.Report, error) {
	if o.ReplayDir != "" {
		return benchReplay(o)
	}
	var rankers []eval.Ranker
	var err error
	rolling := o.DumpDir != "" || len(o.TextWeights) > 0
	switch {
	case o.DumpDir != "":
		st, err := o.openIndex()
		if err != nil {
			return nil, err
		}
		rankers = []eval.Ranker{DumpRanker(st, o.NoHistory)}
	case len(o.TextWeights) > 0:
		st, err := o.openIndex()
		if err != nil {
			return nil, err
		}
		rankers = TextWeightRankers(st, o.NoHistory, o.TextWeights)
	default:
		all, order := Rankers(o.NoHistory, max(2, o.Jobs*2))
		if len(o.Rankers) > 0 {
			order = o.Rankers
		}
		if rankers, err = pickRankers(all, order); err != nil {
			return nil, err
		}
	}
	var decls eval.DeclSource
	if !rolling {
		for _, r := range rankers {
			if pr, ok := r.(*Ranker); ok {
				decls = pr // function-level gold from the facts it loaded
				break
			}
		}
	}
	return eval.Run(ctx, eval.Options{
		Decls:     decls,
		DumpDir:   o.DumpDir,
		Rolling:   rolling,
		NoBundles: rolling,
		Dataset:   o.Dataset,
		Filter:    o.Filter,
		ReposDir:  o.ReposDir,
		WorkDir:   o.WorkDir,
		Jobs:      o.Jobs,
		Timeout:   o.Timeout,
		Progress:  o.Progress,
		Terminal:  o.Terminal,
	}, rankers)
}

// openIndex opens the on-disk index of a dump or a text-weights run.
func (o *BenchOptions) openIndex() (*index.Store, error) {
	dir := o.CacheDir
	if dir == "" {
		dir = filepath.Join(o.WorkDir, "index")
	}
	return index.Open(index.Options{Dir: dir})
}

// benchReplay re-ranks the stored feature dumps (eval.Replay) that the
// dataset and the filter keep.
func benchReplay(o BenchOptions) (*eval.Report, error) {
	all, names := ReplayRankers(o.Model, o.QuestionModel)
	if len(o.Rankers) > 0 {
		names = o.Rankers
	}
	rankers, err := pickRankers(all, names)
	if err != nil {
		return nil, err
	}
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
	recs, err := eval.ReadDumps(o.ReplayDir, eval.KeepDumps(ids, eval.Filter{Langs: o.Filter.Langs, Repos: o.Filter.Repos, Limit: o.Filter.Limit}))
	if err != nil {
		return nil, err
	}
	rep, err := eval.Replay(recs, rankers)
	if err != nil {
		return nil, err
	}
	rep.Dataset = o.Dataset
	return rep, nil
}

// pickRankers returns the rankers of all named by names, in that order.
func pickRankers[R any](all map[string]R, names []string) ([]R, error) {
	var out []R
	for _, n := range names {
		r, ok := all[n]
		if !ok {
			known := make([]string, 0, len(all))
			for k := range all {
				known = append(known, k)
			}
			sort.Strings(known)
			return nil, &UnknownRankerError{Name: n, Known: known}
		}
		out = append(out, r)
	}
	return out, nil
}
