package scip

import (
	"context"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze/rust"
)

// BenchmarkLoadRustAnalyzerIndex reads the rust-analyzer fixture of
// rustsvc into facts; BenchmarkRustLoaderSameTree analyses the same tree
// with our own Rust loader, the peer to compare with.
func BenchmarkLoadRustAnalyzerIndex(b *testing.B) {
	root := sample(b, "rustsvc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), root, Options{Indexes: []string{raFixture}}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRustLoaderSameTree(b *testing.B) {
	root := sample(b, "rustsvc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rust.Load(context.Background(), root, rust.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadTypeScriptIndex reads scip-typescript's index of tssvc.
func BenchmarkLoadTypeScriptIndex(b *testing.B) {
	root := sample(b, "tssvc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), root, Options{Indexes: []string{"index.scip"}}); err != nil {
			b.Fatal(err)
		}
	}
}
