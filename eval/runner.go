package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sourcegraph/conc/pool"
)

// Options configure a run. Dataset (or Instances), ReposDir and WorkDir are
// required; every other zero value means its default.
type Options struct {
	// Dataset is the JSON-lines file to load.
	Dataset string
	// Instances, when not nil, are used instead of loading Dataset.
	Instances []Instance
	// Filter selects the instances to run.
	Filter Filter
	// ReposDir holds the repositories as OWNER+NAME/repo.
	ReposDir string
	// WorkDir caches checkouts across runs.
	WorkDir string
	// Jobs is how many instances run at once; 0 means 1. With 1 job the
	// runner also measures each ranker's peak heap growth per instance.
	Jobs int
	// Budgets are the token budgets of inc@B; empty means DefaultBudgets.
	Budgets []int
	// Timeout bounds one ranker on one instance; 0 means no bound.
	Timeout time.Duration
	// Progress receives progress lines; nil means silent. When Terminal is
	// false only a final summary line is written.
	Progress io.Writer
	Terminal bool
	// Git is the git executable; empty means "git" on PATH.
	Git string
	// NoBundles skips inc@B: no budgets are asked for (feature dumps).
	NoBundles bool
	// Rolling keeps one checkout per repository and moves it from base
	// to base (Checkouts.Rolling); instances of one repository then run
	// one at a time, in dataset order, while other repositories run in
	// parallel.
	Rolling bool
	// DumpDir, when set, receives the feature dump of each instance
	// (dump.go); instances already dumped there are skipped.
	DumpDir string
	// Decls, when set, turns on function-level scoring (funcs.go).
	Decls DeclSource
}

// DefaultWorkDir is where checkouts are cached when the caller has no
// better place: the user's cache directory, under ctxexpand/bench.
func DefaultWorkDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding a cache directory for checkouts: %w", err)
	}
	return filepath.Join(dir, "ctxexpand", "bench"), nil
}

// ErrOptions marks unusable options.
var ErrOptions = errors.New("invalid options")

// Run evaluates every ranker on the same instances and returns the report.
// It fails only on bad options or an unreadable dataset: a checkout that
// cannot be made excludes its instance from scoring (for every ranker), and
// a ranker's error or panic on an instance is recorded and scored as a
// miss. When ctx is cancelled, Run returns what it finished and ctx's error.
func Run(ctx context.Context, opt Options, rankers []Ranker) (*Report, error) {
	start := time.Now()
	if err := checkRankers(rankers); err != nil {
		return nil, err
	}
	budgets, err := checkBudgets(opt.Budgets)
	if err != nil {
		return nil, err
	}
	if opt.NoBundles {
		budgets = nil
	}
	if opt.ReposDir == "" || opt.WorkDir == "" {
		return nil, fmt.Errorf("%w: a repositories directory and a work directory for checkouts are required", ErrOptions)
	}
	all := opt.Instances
	if all == nil {
		if opt.Dataset == "" {
			return nil, fmt.Errorf("%w: no dataset given", ErrOptions)
		}
		if all, err = LoadDataset(opt.Dataset); err != nil {
			return nil, err
		}
	}
	insts, err := opt.Filter.Apply(all)
	if err != nil {
		return nil, err
	}
	skipped := 0
	if opt.DumpDir != "" {
		todo := insts[:0:0]
		for _, in := range insts {
			if dumped(opt.DumpDir, in) {
				skipped++
				continue
			}
			todo = append(todo, in)
		}
		insts = todo
	}
	jobs := max(opt.Jobs, 1)
	co := &Checkouts{ReposDir: opt.ReposDir, WorkDir: opt.WorkDir, Git: opt.Git, Rolling: opt.Rolling}
	prog := newProgress(opt.Progress, opt.Terminal, len(insts), start)
	measureHeap := jobs == 1
	run := instanceRun{co: co, rankers: rankers, budgets: budgets, timeout: opt.Timeout,
		measureHeap: measureHeap, prog: prog, dumpDir: opt.DumpDir, decls: opt.Decls}

	reports := make([]InstanceReport, len(insts))
	if opt.Rolling {
		// One worker per repository at a time, each taking its
		// repository's instances in dataset order.
		byRepo := map[string][]int{}
		var repos []string
		for i, in := range insts {
			if byRepo[in.Repo] == nil {
				repos = append(repos, in.Repo)
			}
			byRepo[in.Repo] = append(byRepo[in.Repo], i)
		}
		p := pool.New().WithMaxGoroutines(jobs)
		for _, repo := range repos {
			p.Go(func() {
				for _, i := range byRepo[repo] {
					reports[i] = run.instance(ctx, insts[i])
					prog.instanceDone()
				}
			})
		}
		p.Wait()
	} else {
		p := pool.New().WithMaxGoroutines(jobs)
		for i := range insts {
			p.Go(func() {
				reports[i] = run.instance(ctx, insts[i])
				prog.instanceDone()
			})
		}
		p.Wait()
	}

	rep := &Report{
		Dataset:   opt.Dataset,
		Budgets:   budgets,
		Jobs:      jobs,
		Instances: reports,
		Skipped:   skipped,
	}
	for _, r := range rankers {
		rep.Rankers = append(rep.Rankers, r.Name())
	}
	rep.Summaries = summarizeReport(rep)
	rep.Wall = time.Since(start)
	rep.PeakRSS = peakRSS()
	prog.finish(rep)
	return rep, ctx.Err()
}

// instanceRun is what running one instance needs.
type instanceRun struct {
	co          *Checkouts
	rankers     []Ranker
	budgets     []int
	timeout     time.Duration
	measureHeap bool
	prog        *progress
	dumpDir     string
	decls       DeclSource
}

// instance checks out one instance, runs every ranker on it and writes
// the feature dump when one is asked for.
func (r instanceRun) instance(ctx context.Context, inst Instance) InstanceReport {
	co, rankers, budgets, timeout, measureHeap, prog := r.co, r.rankers, r.budgets, r.timeout, r.measureHeap, r.prog
	ir := InstanceReport{
		ID: inst.ID, Repo: inst.Repo, Lang: inst.Lang, Base: inst.Base,
		Query: inst.Query, Gold: inst.GoldFiles,
	}
	if err := ctx.Err(); err != nil {
		ir.CheckoutError = err.Error()
		return ir
	}
	t0 := time.Now()
	res, err := co.Prepare(ctx, inst)
	ir.CheckoutTime = time.Since(t0)
	if err != nil {
		ir.CheckoutError = err.Error()
		return ir
	}
	ir.CheckoutReused = res.Reused
	ir.CheckoutMissing = res.Missing
	view := inst.forRanker()
	dumpDone := r.dumpDir == ""
	var answers []Ranking
	for _, rk := range rankers {
		prog.rankerStart(inst.ID, rk.Name())
		result, ranking := runRanker(ctx, rk, res.Dir, inst, view, budgets, timeout, measureHeap)
		if !dumpDone && result.Error == "" && ranking.FeatureNames != nil {
			dumpDone = true
			if err := writeDump(r.dumpDir, inst, makeDump(inst, ranking)); err != nil {
				result.Error = err.Error()
			}
		}
		ir.Results = append(ir.Results, result)
		answers = append(answers, ranking)
	}
	// A review's answers are whole files (tests, co-changed code), not the
	// functions a fix changed.
	if r.decls != nil && ctx.Err() == nil && inst.Kind != KindDiff {
		r.scoreFunctions(ctx, &ir, inst, res.Dir, answers)
	}
	return ir
}

// scoreFunctions adds the function-level scores of every ranker's answer
// (funcs.go).
func (r instanceRun) scoreFunctions(ctx context.Context, ir *InstanceReport, inst Instance, root string, answers []Ranking) {
	gitDir := filepath.Join(r.co.ReposDir, RepoDirName(inst.Repo), "repo")
	changed, inserted, err := touchedLines(ctx, r.co, gitDir, inst)
	if err != nil {
		ir.FuncError = "diffing the fix: " + err.Error()
		return
	}
	paths := map[string]bool{}
	for _, g := range inst.GoldFiles {
		paths[g] = true
	}
	for i, a := range answers {
		if a.Functions == nil && ir.Results[i].Error == "" {
			for _, p := range topScored(a.Files, inst, funcFiles) {
				paths[p] = true
			}
		}
	}
	var list []string
	for p := range paths {
		list = append(list, p)
	}
	slices.Sort(list)
	decls, err := r.decls.Decls(ctx, root, inst.forRanker(), list)
	if err != nil {
		ir.FuncError = "listing declarations: " + err.Error()
		return
	}
	var goldDecls []Decl
	for _, d := range decls {
		if slices.Contains(inst.GoldFiles, d.Path) {
			goldDecls = append(goldDecls, d)
		}
	}
	ir.GoldFuncs = goldFunctions(goldDecls, changed, inserted)
	if len(ir.GoldFuncs) == 0 {
		return
	}
	for i, a := range answers {
		res := &ir.Results[i]
		var fns []RankedFunc
		if a.Functions == nil && res.Error == "" {
			fns = functionsByFile(root, inst, topScored(a.Files, inst, funcFiles), decls)
		}
		for _, f := range a.Functions {
			if p := normPath(f.Path); p != "" && scoredFor(p, inst) {
				f.Path = p
				fns = append(fns, f)
			}
		}
		shown := a.Shown
		if shown == nil {
			// Whole files.
			shown = map[int]map[string][]LineRange{}
			for b, ps := range a.Bundles {
				shown[b] = map[string][]LineRange{}
				for _, p := range ps {
					shown[b][normPath(p)] = []LineRange{{1, math.MaxInt32}}
				}
			}
		}
		fs := scoreFunctions(ir.GoldFuncs, fns, shown, r.budgets)
		res.Funcs = &fs
		res.TopFuncs = fns[:min(len(fns), MaxK)]
	}
}

// runRanker runs one ranker on one instance and scores its answer; it
// returns the ranker's answer too.
func runRanker(ctx context.Context, r Ranker, root string, inst, view Instance, budgets []int,
	timeout time.Duration, measureHeap bool) (RankerResult, Ranking) {
	var hs *heapSampler
	if measureHeap {
		// Before the time limit starts: the sampler collects garbage
		// first, which on a busy machine can take longer than a short
		// limit.
		hs = startHeapSampler()
	}
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		rctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	t0 := time.Now()
	rk, err := safeRank(rctx, r, root, view, slices.Clone(budgets))
	elapsed := time.Since(t0)
	res := RankerResult{Ranker: r.Name(), Elapsed: elapsed}
	if hs != nil {
		res.HeapPeak = hs.stop()
	}
	if err != nil {
		res.Error = err.Error()
		res.Scores = zeroScores(len(inst.GoldFiles), len(budgets))
		res.GoldDetail = goldDetail(inst.GoldFiles, nil, nil, nil, res.Scores, budgets)
		return res, rk
	}
	ranked, idx := scoredList(rk.Files, inst)
	res.Scores = ScoreInstance(inst.GoldFiles, ranked, rk.Bundles, budgets)
	res.Ranked = len(ranked)
	for i := 0; i < len(idx) && i < MaxK; i++ {
		f := rk.Files[idx[i]]
		f.Path = ranked[i]
		res.Top = append(res.Top, f)
	}
	res.GoldDetail = goldDetail(inst.GoldFiles, rk.Files, idx, rk.Bundles, res.Scores, budgets)
	return res, rk
}

// goldDetail says, for each gold file, where the ranker put it, why, and
// which bundles hold it.
func goldDetail(gold []string, files []RankedFile, idx []int, bundles map[int][]string, s Scores, budgets []int) []GoldResult {
	out := make([]GoldResult, len(gold))
	for i, g := range gold {
		out[i] = GoldResult{Path: g, Rank: s.GoldRanks[i], InBundles: []int{}}
		if r := s.GoldRanks[i]; r > 0 {
			out[i].Reasons = files[idx[r-1]].Reasons
		}
		for _, b := range budgets {
			if slices.ContainsFunc(bundles[b], func(p string) bool { return normPath(p) == g }) {
				out[i].InBundles = append(out[i].InBundles, b)
			}
		}
	}
	return out
}

func checkRankers(rankers []Ranker) error {
	if len(rankers) == 0 {
		return fmt.Errorf("%w: no rankers to evaluate", ErrOptions)
	}
	seen := map[string]bool{}
	for _, r := range rankers {
		if r == nil || r.Name() == "" {
			return fmt.Errorf("%w: a ranker without a name", ErrOptions)
		}
		if seen[r.Name()] {
			return fmt.Errorf("%w: two rankers are named %q", ErrOptions, r.Name())
		}
		seen[r.Name()] = true
	}
	return nil
}

// checkBudgets returns the budgets sorted, or the defaults.
func checkBudgets(bs []int) ([]int, error) {
	if len(bs) == 0 {
		return slices.Clone(DefaultBudgets), nil
	}
	out := slices.Clone(bs)
	slices.Sort(out)
	for i, b := range out {
		if b <= 0 {
			return nil, fmt.Errorf("%w: budget %d is not positive", ErrOptions, b)
		}
		if i > 0 && out[i-1] == b {
			return nil, fmt.Errorf("%w: budget %d is given twice", ErrOptions, b)
		}
	}
	return out, nil
}
