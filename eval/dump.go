package eval

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Feature dumps.
//
// With Options.DumpDir set, the runner writes, for each instance, what the
// first ranker that computes features (Ranking.Candidates) returned: the
// feature names, every candidate file with its features and whether the fix
// changed it. A dump is one gzip-compressed JSON object per instance,
// DumpDir/OWNER+NAME/COMMIT.json.gz, written under a temporary name and
// renamed, so an interrupted run leaves no half-written dump; a later run
// with the same DumpDir skips the instances already dumped, so a long
// extraction resumes where it stopped. benchmarks/learn reads them.

// DumpRecord is one instance's training record.
type DumpRecord struct {
	ID       string   `json:"id"`
	Repo     string   `json:"repo"`
	Lang     string   `json:"lang"`
	Base     string   `json:"base"`
	Query    string   `json:"query"`
	Gold     []string `json:"gold_files"`
	Features []string `json:"features"`
	// Candidates are in the ranker's order.
	Candidates []DumpCandidate `json:"candidates"`
	// GoldMissing lists the gold files that are not candidates: no
	// ranking of the candidates can find them.
	GoldMissing []string `json:"gold_missing,omitempty"`
}

// DumpCandidate is one candidate file of a dump.
type DumpCandidate struct {
	Path  string `json:"path"`
	Label int    `json:"label"` // 1 when the fix changed the file
	// Scored says whether the benchmark scores the file (IsScoredSource):
	// metrics computed from a dump rank only these.
	Scored bool `json:"scored"`
	// X holds the features as 32-bit floats, the precision models
	// compare them at (rank/learn).
	X []json.Number `json:"x"`
}

// dumpPath is where the dump of inst goes: COMMIT.json.gz for a fix, and
// COMMIT-NAME.json.gz for an instance that shares its commit with others
// (questions about one tree: the NAME of the id "owner/name@NAME").
func dumpPath(dir string, inst Instance) string {
	name := inst.Commit
	if inst.Commit == inst.Base {
		_, id, _ := strings.Cut(inst.ID, "@")
		name += "-" + strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == '.' {
				return '_'
			}
			return r
		}, id)
	}
	return filepath.Join(dir, RepoDirName(inst.Repo), name+".json.gz")
}

// dumped reports whether inst already has a dump in dir.
func dumped(dir string, inst Instance) bool {
	_, err := os.Stat(dumpPath(dir, inst))
	return err == nil
}

// makeDump builds the record of one instance.
func makeDump(inst Instance, rk Ranking) DumpRecord {
	rec := DumpRecord{
		ID: inst.ID, Repo: inst.Repo, Lang: inst.Lang, Base: inst.Base, Query: inst.Query,
		Gold: inst.GoldFiles, Features: rk.FeatureNames,
	}
	in := map[string]bool{}
	for _, c := range rk.Candidates {
		p := normPath(c.Path)
		label := 0
		if slices.Contains(inst.GoldFiles, p) {
			label = 1
			in[p] = true
		}
		x := make([]json.Number, len(c.Features))
		for i, v := range c.Features {
			x[i] = compactNumber(v)
		}
		rec.Candidates = append(rec.Candidates, DumpCandidate{Path: p, Label: label, Scored: scoredFor(p, inst), X: x})
	}
	for _, g := range inst.GoldFiles {
		if !in[g] {
			rec.GoldMissing = append(rec.GoldMissing, g)
		}
	}
	return rec
}

// compactNumber writes v as the shortest text of its 32-bit float.
func compactNumber(v float64) json.Number {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return json.Number(strconv.FormatFloat(float64(float32(v)), 'g', -1, 32))
}

// writeDump writes rec atomically.
func writeDump(dir string, inst Instance, rec DumpRecord) error {
	p := dumpPath(dir, inst)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	zw := gzip.NewWriter(f)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(rec); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		return fmt.Errorf("writing the feature dump of %s: %w", inst.ID, err)
	}
	return nil
}

// ReadDump reads a dump written by a run with Options.DumpDir.
func ReadDump(p string) (DumpRecord, error) {
	var rec DumpRecord
	f, err := os.Open(p)
	if err != nil {
		return rec, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return rec, fmt.Errorf("reading %s: %w", p, err)
	}
	dec := json.NewDecoder(zr)
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil {
		return rec, fmt.Errorf("reading %s: %w", p, err)
	}
	return rec, nil
}
