package bundle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// benchRequest is a 10-file bundle: eight real Go files of this repository
// (a few hundred lines each) with spans on their middle symbols, and the
// Rust fixture twice, read from memory so only assembly is measured.
func benchRequest(b *testing.B, budget int, format Format) Request {
	b.Helper()
	paths := []string{
		"../analyze/facts.go", "../analyze/source.go", "../analyze/walk.go", "../analyze/ident.go",
		"build.go", "prepare.go", "spans.go", "skeleton_sym.go",
	}
	contents := map[string][]byte{}
	var files []File
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		rel := filepath.ToSlash(filepath.Clean(p))
		contents[rel] = data
		syms := goSymbolsAt(b, ".", p)
		mid := syms[len(syms)/2]
		files = append(files, File{Path: rel, Lang: analyze.LangGo, Score: 1 / float64(1+i), Symbols: syms,
			Reasons: []string{"benchmark"}, Spans: []Span{{Start: mid.Start, End: mid.End, Symbol: mid.Name}}})
	}
	rs, err := os.ReadFile(filepath.Join(fixtureRoot, "store/mem.rs"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		rel := fmt.Sprintf("crate%d/mem.rs", i)
		contents[rel] = rs
		f := rustFile()
		f.Path, f.Score = rel, 0.05
		files = append(files, f)
	}
	return Request{
		Query: "benchmark", Strategy: "focused", Budget: budget, Format: format, Files: files,
		Options: Options{Read: func(_ context.Context, p string) ([]byte, error) { return contents[p], nil }},
	}
}

// BenchmarkBuild measures assembling a 10-file bundle: cold (a fresh
// counter, nothing cached) and warm (a counter that has seen the files).
func BenchmarkBuild(b *testing.B) {
	for _, budget := range []int{8000, 100000} {
		for _, format := range []Format{Markdown, JSON} {
			req := benchRequest(b, budget, format)
			b.Run(fmt.Sprintf("%s/%d/cold", format, budget), func(b *testing.B) {
				for b.Loop() {
					c, err := tokenize.New("o200k")
					if err != nil {
						b.Fatal(err)
					}
					req.Counter = c
					if _, err := Build(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/%d/warm", format, budget), func(b *testing.B) {
				req.Counter = newCounter(b, "o200k")
				for b.Loop() {
					if _, err := Build(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	req := benchRequest(b, 8000, Markdown)
	req.Counter = newCounter(b, "estimate")
	b.Run("markdown/8000/estimate", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
