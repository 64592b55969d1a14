package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
)

// LoadOptions configures Load.
type LoadOptions struct {
	SkipTests bool
	// Ignore is asked about every repository path before it is analysed.
	Ignore func(rel string, isDir bool) bool
	// AllowNetwork lets the Go loader download missing modules.
	AllowNetwork bool
	Logf         func(format string, args ...any)

	// Backend is BackendBuiltin (the default when empty) or BackendLSP:
	// ask a language server first and fall back to the built-in analysis,
	// with a problem saying why, when it fails.
	Backend string
	// LSPCmd is the language server's command line for BackendLSP; empty
	// means gopls for Go and rust-analyzer for Rust.
	LSPCmd string
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
}

// Load analyses every language present under root and merges the facts.
// It fails only when root cannot be read at all; a loader that fails is
// recorded as a problem and the other languages still load. A repository
// with neither Go nor Rust files gives empty facts and a problem saying so.
func Load(ctx context.Context, root string, opt LoadOptions) (*analyze.Facts, error) {
	if err := opt.checkBackend(); err != nil {
		return nil, err
	}
	files, probs, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{Ignore: opt.Ignore})
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
			results[i], errs[i] = loadLang(ctx, l, root, opt)
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
