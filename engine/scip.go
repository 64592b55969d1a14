package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/scip"
)

// DefaultSCIPIndex is the index file read from the root when present
// (where rust-analyzer scip, scip-typescript and scip-python write theirs).
const DefaultSCIPIndex = "index.scip"

// scipIndexes are the SCIP index files a load reads: those of
// LoadOptions.SCIP, then index.scip at the root when it exists and is not
// listed already; none with NoSCIP.
func (opt LoadOptions) scipIndexes(root string) []string {
	if opt.NoSCIP {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range opt.SCIP {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		if !seen[filepath.Clean(abs)] {
			seen[filepath.Clean(abs)] = true
			out = append(out, p)
		}
	}
	def := filepath.Join(root, DefaultSCIPIndex)
	if st, err := os.Stat(def); err == nil && st.Mode().IsRegular() && !seen[def] {
		out = append(out, DefaultSCIPIndex)
	}
	return out
}

// applySCIP reads the SCIP indexes and lays them over the loaders' facts
// (analyze/scip: exact edges replace by-name ones in the files both know;
// files of other languages come from the index alone).
func applySCIP(ctx context.Context, root string, facts *analyze.Facts, opt LoadOptions, indexes []string) {
	if len(indexes) == 0 {
		return
	}
	start := time.Now()
	res, err := scip.Load(ctx, root, scip.Options{Indexes: indexes, Ignore: opt.Ignore, OnSource: opt.sources.hook()})
	if err != nil {
		facts.Partial = true // only a cancelled context fails Load
		return
	}
	st := scip.Merge(facts, res)
	if opt.Logf != nil {
		opt.Logf("scip: %s; %d files overlaid, %d added, %d by-name edges replaced, %d edges from the index",
			res.Summary(), st.Overlaid, st.Added, st.Dropped, st.EdgesSCIP)
	}
	logPhase(ctx, opt.Logger, "scip", start, "indexes", len(indexes), "fresh", len(res.Fresh), "stale", len(res.Stale),
		"overlaid", st.Overlaid, "added", st.Added, "replaced", st.Dropped, "edges", st.EdgesSCIP)
}

// scipInputs says which repository files a load with these indexes
// depends on besides Go and Rust sources: the sources of the languages
// known only through SCIP (an edit makes their documents stale).
func scipInputs(indexes []string) func(rel string) bool {
	if len(indexes) == 0 {
		return func(string) bool { return false }
	}
	return func(rel string) bool {
		switch analyze.LangOf(rel) {
		case analyze.LangTypeScript, analyze.LangJavaScript, analyze.LangPython:
			return true
		}
		return false
	}
}

// scipStamp identifies the index files for the snapshot key by path, size
// and modification time: an index is regenerated whole, and hashing a
// large one on every run would cost more than the load it saves.
func scipStamp(root string, indexes []string) string {
	var b strings.Builder
	for _, p := range indexes {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		if st, err := os.Stat(abs); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, st.Size(), st.ModTime().UnixNano())
		} else {
			fmt.Fprintf(&b, "%s missing\n", p)
		}
	}
	return b.String()
}

// ExportSCIP writes the Go and Rust files of facts as a SCIP index to
// path, atomically: a reader never sees half a file. toolVersion names
// the writer in the index's metadata.
func ExportSCIP(path string, facts *analyze.Facts, toolVersion string) (scip.ExportStats, error) {
	idx, st := scip.Export(facts, scip.ExportOptions{ToolVersion: toolVersion})
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return st, fmt.Errorf("writing the SCIP index: %w", err)
	}
	w := bufio.NewWriter(f)
	err = scip.WriteIndex(w, idx)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return st, fmt.Errorf("writing the SCIP index %s: %w", path, err)
	}
	return st, nil
}
