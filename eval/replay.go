package eval

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Offline replay.
//
// A feature dump (dump.go) holds every candidate file of an instance with
// the features the pipeline computed for it. Re-ranking those candidates
// needs no repository, no checkout and no analysis: a ranker that reads
// features alone (a model, the hand-weighted score, BM25's) is scored on
// a whole dev set in seconds, so a change to a model or to how its
// scores are ordered is measured before anything is rebuilt. Replay
// scores only what the dump holds: the ranking of the candidates (gold
// files that were not candidates count as missed, as they do in a full
// run), not the bundles.

// ReplayRanker orders the candidates of a dumped instance from their
// features.
type ReplayRanker interface {
	Name() string
	// Order returns candidate indexes, best first; candidates left out
	// are not ranked.
	Order(rec *DumpRecord, x [][]float64) ([]int, error)
}

// KeepDumps selects dumps for ReadDumps: those of the instances named in
// ids (nil keeps every instance) that pass f's language and repository
// filters (repositories compared as written), at most f.Limit of them (0:
// all). PerRepo does not apply to dumps.
func KeepDumps(ids map[string]bool, f Filter) func(*DumpRecord) bool {
	n := 0
	return func(rec *DumpRecord) bool {
		switch {
		case ids != nil && !ids[rec.ID],
			len(f.Repos) > 0 && !slices.Contains(f.Repos, rec.Repo),
			len(f.Langs) > 0 && !slices.Contains(f.Langs, rec.Lang),
			f.Limit > 0 && n >= f.Limit:
			return false
		}
		n++
		return true
	}
}

// ReadDumps reads the dumps under dir (DIR/OWNER+NAME/COMMIT.json.gz) in
// path order; keep, when set, selects the instances to return.
func ReadDumps(dir string, keep func(*DumpRecord) bool) ([]DumpRecord, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json.gz") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the dumps: %w", err)
	}
	slices.Sort(paths)
	var out []DumpRecord
	for _, p := range paths {
		rec, err := ReadDump(p)
		if err != nil {
			return nil, err
		}
		if keep == nil || keep(&rec) {
			out = append(out, rec)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no feature dumps under %s: make them with ctxexpand bench --dump-features", dir)
	}
	return out, nil
}

// FeatureVectors returns a dump's feature vectors as float64.
func (rec *DumpRecord) FeatureVectors() ([][]float64, error) {
	x := make([][]float64, len(rec.Candidates))
	for i, c := range rec.Candidates {
		if len(c.X) != len(rec.Features) {
			return nil, fmt.Errorf("dump %s: candidate %s has %d features, the dump names %d", rec.ID, c.Path, len(c.X), len(rec.Features))
		}
		row := make([]float64, len(c.X))
		for j, n := range c.X {
			v, err := strconv.ParseFloat(string(n), 64)
			if err != nil {
				return nil, fmt.Errorf("dump %s: candidate %s: feature %s: %w", rec.ID, c.Path, rec.Features[j], err)
			}
			row[j] = v
		}
		x[i] = row
	}
	return x, nil
}

// Replay scores each ranker on the dumped instances, as a report whose
// instances and summaries read like a run's (no bundles, no times).
func Replay(recs []DumpRecord, rankers []ReplayRanker) (*Report, error) {
	start := time.Now()
	r := &Report{}
	for _, rk := range rankers {
		r.Rankers = append(r.Rankers, rk.Name())
	}
	for i := range recs {
		rec := &recs[i]
		x, err := rec.FeatureVectors()
		if err != nil {
			return nil, err
		}
		ir := InstanceReport{ID: rec.ID, Repo: rec.Repo, Lang: rec.Lang, Base: rec.Base, Query: rec.Query, Gold: rec.Gold}
		for _, rk := range rankers {
			order, err := rk.Order(rec, x)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", rk.Name(), rec.ID, err)
			}
			var ranked []string
			var top []RankedFile
			for _, c := range order {
				if c < 0 || c >= len(rec.Candidates) || !rec.Candidates[c].Scored {
					continue
				}
				ranked = append(ranked, rec.Candidates[c].Path)
				if len(top) < MaxK {
					top = append(top, RankedFile{Path: rec.Candidates[c].Path})
				}
			}
			ir.Results = append(ir.Results, RankerResult{Ranker: rk.Name(), Ranked: len(ranked), Top: top,
				Scores: ScoreInstance(rec.Gold, ranked, nil, nil)})
		}
		r.Instances = append(r.Instances, ir)
	}
	r.Summaries = summarizeReport(r)
	r.Wall = time.Since(start)
	return r, nil
}

// FeatureOrder ranks candidates by one feature, highest first, ties (and
// zeros) in the dump's order: "hand" is the hand-weighted ranking,
// "bm25" the baseline's.
type FeatureOrder struct {
	Label   string
	Feature string
}

// Name implements ReplayRanker.
func (f FeatureOrder) Name() string { return f.Label }

// Order implements ReplayRanker.
func (f FeatureOrder) Order(rec *DumpRecord, x [][]float64) ([]int, error) {
	j := slices.Index(rec.Features, f.Feature)
	if j < 0 {
		return nil, fmt.Errorf("the dump has no feature %q", f.Feature)
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a][j] > x[b][j]:
			return -1
		case x[a][j] < x[b][j]:
			return 1
		}
		return 0
	})
	return idx, nil
}
