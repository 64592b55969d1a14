package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
)

// LoadOptions configures Load.
type LoadOptions struct {
	SkipTests bool
	// Ignore is asked about every repository path before it is analysed.
	Ignore func(rel string, isDir bool) bool
	// Generated, when set, marks the files it reports as generated, so
	// that the ranker demotes them (vendored files stay vendored), and
	// IgnoreProblems is asked after loading for the problems met reading
	// ignore rules. ignore.Matcher's MatchGenerated and Problems fit.
	Generated      func(rel string) bool
	IgnoreProblems func() []analyze.Problem
	// AllowNetwork lets the Go loader download missing modules.
	AllowNetwork bool
	Logf         func(format string, args ...any)
}

// loader is a language loader as the pipeline sees it.
type loader struct {
	lang analyze.Lang
	load func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error)
}

var loaders = []loader{
	{analyze.LangGo, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return golang.Load(ctx, root, golang.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore, AllowNetwork: opt.AllowNetwork, Logf: opt.Logf})
	}},
	{analyze.LangRust, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return rust.Load(ctx, root, rust.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore})
	}},
}

// Load analyses every language present under root and merges the facts.
// It fails only when root cannot be read at all; a loader that fails is
// recorded as a problem and the other languages still load. A repository
// with neither Go nor Rust files gives empty facts and a problem saying so.
func Load(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
	files, probs, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{Ignore: opt.Ignore})
	if err != nil && len(files) == 0 {
		if ctx.Err() != nil {
			return stoppedEarly(root, probs), nil
		}
		return nil, fmt.Errorf("reading %s: %w", root, err)
	}
	present := map[analyze.Lang]bool{}
	for _, f := range files {
		present[analyze.LangOf(f)] = true
	}
	merged := &analyze.Facts{Root: root}
	if len(present) == 0 {
		merged.Problems = append(merged.Problems, probs...)
		merged.Problemf(analyze.ProblemSkipped, "", 0, "no Go or Rust source files found; nothing to analyse")
		applyIgnoreRules(merged, opt)
		return merged, nil
	}
	results := make([]*analyze.Facts, len(loaders))
	errs := make([]error, len(loaders))
	var wg sync.WaitGroup
	for i, l := range loaders {
		if !present[l.lang] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = l.load(ctx, root, opt)
		}()
	}
	wg.Wait()
	for i, l := range loaders {
		if errs[i] != nil {
			merged.Problemf(analyze.ProblemLoad, "", 0, "%s loader failed: %v", l.lang, errs[i])
		}
		if results[i] != nil {
			merged.Merge(results[i])
		}
	}
	if ctx.Err() != nil {
		merged.Partial = true
	}
	applyIgnoreRules(merged, opt)
	merged.Normalize()
	return merged, nil
}

// applyIgnoreRules marks configured generated files and records the
// problems met reading ignore rules.
func applyIgnoreRules(facts *analyze.Facts, opt LoadOptions) {
	if opt.Generated != nil {
		for i := range facts.Files {
			f := &facts.Files[i]
			if f.Category != analyze.CatGenerated && f.Category != analyze.CatVendored && opt.Generated(f.Path) {
				f.Category = analyze.CatGenerated
			}
		}
	}
	if opt.IgnoreProblems != nil {
		facts.Problems = append(facts.Problems, opt.IgnoreProblems()...)
	}
}
