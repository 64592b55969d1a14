package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
	"github.com/ctxexpand/ctxexpand/index"
)

// LoadOptions configures Load.
type LoadOptions struct {
	SkipTests bool
	// Ignore is asked about every repository path before it is analysed.
	Ignore func(rel string, isDir bool) bool
	// AllowNetwork lets the Go loader download missing modules.
	AllowNetwork bool
	Logf         func(format string, args ...any)

	// Index, when set, is the on-disk index: unchanged inputs load from
	// it and what is computed is stored in it (indexed.go).
	Index *index.Store
	// Notice receives index notices (a corrupt entry rebuilt).
	Notice func(msg string)
	// OnIndexed is told what a load through the index did.
	OnIndexed func(IndexedLoad)
	// Progress, when set, is told each loader's phase and how far it is
	// ("go: type-checking packages", 120, 600); it is called from several
	// goroutines.
	Progress func(phase string, done, total int)

	packs *packs        // set by loadIndexed for the loaders
	state *indexedState // filled by loadIndexed for Open
}

// goOptions are the Go loader's options.
func (opt LoadOptions) goOptions() golang.Options {
	return golang.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore, AllowNetwork: opt.AllowNetwork, Logf: opt.Logf, Progress: opt.Progress}
}

// loader is a language loader as the pipeline sees it.
type loader struct {
	lang analyze.Lang
	load func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error)
}

var loaders = []loader{
	{analyze.LangGo, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return golang.Load(ctx, root, opt.packs.goOptions(opt.goOptions()))
	}},
	{analyze.LangRust, func(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
		return rust.Load(ctx, root, opt.packs.rustOptions(rust.Options{SkipTests: opt.SkipTests, Ignore: opt.Ignore, Progress: opt.Progress}))
	}},
}

// Load analyses every language present under root and merges the facts.
// It fails only when root cannot be read at all; a loader that fails is
// recorded as a problem and the other languages still load. A repository
// with neither Go nor Rust files gives empty facts and a problem saying so.
func Load(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
	if opt.Index != nil {
		return loadIndexed(ctx, root, opt)
	}
	files, probs, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{Ignore: opt.Ignore})
	if err != nil && len(files) == 0 && ctx.Err() != nil {
		return timedOut(root), nil // deadline.go
	}
	if err != nil && len(files) == 0 {
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
	merged.Normalize()
	return merged, nil
}
