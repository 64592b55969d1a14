package pack_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// The values of engine.IndexedLoad.Snapshot the tests look for.
const (
	snapshotHit  = "hit"
	snapshotMiss = "miss"
)

// repoRoot is the module root, where the sample repositories live.
func repoRoot(t testing.TB) string { return testfiles.ModuleRoot(t) }

// copyTree copies the sample repository src into a fresh directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testfiles.CopyDir(t, src, dst)
	return dst
}

func openIndex(t *testing.T, dir string) *index.Store {
	t.Helper()
	st, err := index.Open(index.Options{Dir: dir, Notice: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// outcome is everything a query shows the user, and how the facts were
// loaded.
type outcome struct {
	text     string
	snapshot string
}

// runQuery opens root (through st when not nil) and answers q.
func runQuery(t *testing.T, root string, st *index.Store, q string) outcome {
	t.Helper()
	var o outcome
	opt := engine.LoadOptions{}
	if st != nil {
		opt.Index = st
		opt.OnIndexed = func(l engine.IndexedLoad) { o.snapshot = l.Snapshot }
	}
	s, err := engine.Open(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() // the index is written in the background of the query
	s.FixedCommit = "0000000000000000000000000000000000000000"
	out, err := s.Query(context.Background(), engine.Request{Query: q, Budget: 6000, MaxFiles: 20, Format: "markdown"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(rankingText(out))
	b.Write(out.Bundle)
	out.WriteExplain(&b)
	o.text = b.String()
	return o
}

// rankingText is the ranking of o, one file a line with its reasons.
func rankingText(o *engine.Output) string {
	var b strings.Builder
	fmt.Fprintf(&b, "query: %s\nstrategy: %s depth %d\n", o.Plan.Text, strings.Join(o.Result.Strategies, "+"), o.Result.Depth)
	for i, f := range o.Result.Files {
		fmt.Fprintf(&b, "%2d %.4f %s\n", i+1, f.Score, f.Path)
		for _, r := range f.Reasons {
			fmt.Fprintf(&b, "      %s\n", r)
		}
	}
	return b.String()
}
