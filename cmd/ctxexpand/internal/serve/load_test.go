package serve_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
)

// loadFull runs TestServeLoad in its full form (make bench-load).
var loadFull = flag.Bool("load-full", false, "TestServeLoad: 8 clients × 200 queries with edits all along, and resident memory checked")

// loadAnswer is one answer of the load test, kept small: the output's
// hash, not the output.
type loadAnswer struct {
	query  int
	gen    uint64
	output string // hashOf the output
	notes  string // hashOf the notes
	took   time.Duration
}

// TestServeLoad: clients on the socket ask queries at once while a file
// of the repository is edited again and again; every answer must come
// from one generation (it says which) and be, byte for byte, the answer
// of a fresh load of the tree as that generation holds it, and no query
// may fail. The editor saves at its own pace, as an agent does, without
// waiting for the server to apply a save before the next one: the file is
// often rewritten while the generation that holds its previous content is
// being loaded or is answering, which must change none of that
// generation's answers (a resident session shows the text its load read,
// never the disk's newer one). The short form (the default) is 4 clients
// × 6 queries with a save every 25 ms while they run (40 at most);
// -load-full is 8 clients × 200 queries with a save every 100 ms all
// along, and checks that the resident memory after the run is no more
// than 10% over what it was after the first 100 queries (a leak; less is
// fine). Both print the latency percentiles; neither asserts on time.
func TestServeLoad(t *testing.T) {
	clients, perClient, edits, editEvery := 4, 6, 40, 25*time.Millisecond
	if *loadFull {
		clients, perClient, edits, editEvery = 8, 200, 1<<30, 100*time.Millisecond
	}
	root, st := gosvcShared(t)
	const edited = "internal/service/user.go"
	orig := restoreAfter(t, root, edited)
	variants := [][]byte{
		orig,
		append(slices.Clip(orig), "\n// FindByEmail compares addresses lower-cased (variant 1).\n"...),
		append(slices.Clip(orig), "\n// FindByEmail trims the address first (variant 2).\n"...),
	}
	byHash := map[string]int{}
	for i, v := range variants {
		byHash[hashOf(v)] = i
	}
	queries := []*engine.Request{
		{Query: "fix UserService.FindByEmail", Budget: 6000, Format: "json", NoNetwork: true},
		{Query: "how does FindByEmail reach the repository", Budget: 3000, Format: "markdown", NoNetwork: true},
		{Query: "refactor internal/service", Budget: 1500, Format: "xml", NoNetwork: true},
	}
	rs := startReal(t, root, st, edited, false)
	ctx := context.Background()
	if resp, err := rs.query(ctx, queries[0]); err != nil || resp.Code != "" { // the first load
		t.Fatalf("first query: %+v, %v", resp, err)
	}

	var (
		wg       sync.WaitGroup
		answered atomic.Int64
		rss100   atomic.Int64
		mu       sync.Mutex
		answers  []loadAnswer
	)
	stopEdits := make(chan struct{})
	editsDone := make(chan int)
	go func() {
		n := 0
		defer func() { editsDone <- n }()
		tick := time.NewTicker(editEvery)
		defer tick.Stop()
		for n < edits {
			select {
			case <-stopEdits:
				return
			case <-tick.C:
			}
			n++
			// Saved as editors save, whole: written beside it and renamed
			// over it. (Written in place, a load may read it half
			// written, a state no variant describes, which this test
			// could not load afresh.)
			tmp := filepath.Join(root, edited+".tmp")
			if err := os.WriteFile(tmp, variants[n%len(variants)], 0o644); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, filepath.Join(root, edited)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perClient; i++ {
				qi := (c + i) % len(queries)
				t0 := time.Now()
				resp, err := rs.query(ctx, queries[qi])
				took := time.Since(t0)
				if err != nil || resp.Code != "" || resp.Gen == 0 {
					t.Errorf("client %d, query %d: %+v, %v", c, i, resp, err)
					return
				}
				mu.Lock()
				answers = append(answers, loadAnswer{query: qi, gen: resp.Gen, output: hashOf([]byte(resp.Output)), notes: hashOf([]byte(resp.Notes)), took: took})
				mu.Unlock()
				if answered.Add(1) == 100 {
					rss100.Store(retainedRSS(t, rs))
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	close(stopEdits)
	nEdits := <-editsDone
	rssEnd := retainedRSS(t, rs)
	if t.Failed() {
		return
	}

	// The figures.
	took := make([]time.Duration, len(answers))
	gens := map[uint64]bool{}
	for i, a := range answers {
		took[i] = a.took
		gens[a.gen] = true
	}
	slices.Sort(took)
	pct := func(p float64) time.Duration {
		return took[max(0, min(len(took)-1, int(p*float64(len(took))+0.999999)-1))]
	}
	stat := rs.status(t)
	report := fmt.Sprintf("%d clients × %d queries in %v with %d edits (%.0f queries/s): p50 %v, p95 %v, p99 %v; answers from %d generations (the last %d); token memo hit rate %.1f%%; edit to fresh answer p50 %v, p95 %v",
		clients, perClient, wall.Round(time.Millisecond), nEdits, float64(len(answers))/wall.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.95).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond),
		len(gens), stat.Gen, 100*stat.Figures.TokenHitRate(), stat.Figures.EditP50.Round(10*time.Microsecond), stat.Figures.EditP95.Round(10*time.Microsecond))
	if r := rss100.Load(); r > 0 {
		report += fmt.Sprintf("; RSS %d MiB after 100 queries, %d MiB at the end (%+.1f%%)", r>>20, rssEnd>>20, 100*float64(rssEnd-r)/float64(r))
		if *loadFull && float64(rssEnd) > 1.10*float64(r) {
			t.Errorf("resident memory grew by more than 10%% from the 100th query to the end: %d MiB, then %d MiB", r>>20, rssEnd>>20)
		}
	}
	t.Log(report)
	if *loadFull {
		fmt.Println("serve load:", report)
	}

	// Every answer against a fresh load of its generation's tree.
	type key struct{ variant, query int }
	fresh := map[key][2]string{}
	for _, a := range answers {
		h, ok := rs.genHash(a.gen)
		v, known := byHash[h]
		if !ok || !known {
			t.Fatalf("an answer from generation %d, which holds %s as no edit wrote it (known: %v)", a.gen, edited, ok)
		}
		k := key{v, a.query}
		want, ok := fresh[k]
		if !ok {
			want = freshAnswer(t, root, st, edited, variants[v], queries[a.query])
			fresh[k] = want
		}
		if a.output != want[0] || a.notes != want[1] {
			t.Errorf("query %d from generation %d (variant %d) differs from a fresh load's answer (output %v, notes %v)",
				a.query, a.gen, v, a.output == want[0], a.notes == want[1])
		}
	}
	t.Logf("%d answers checked against %d fresh loads", len(answers), len(fresh))
}

// freshAnswer loads root anew, with content as rel, outside the server
// (through the shared index, as the command line does) and returns the
// hashes of the output and notes the command would print for q.
func freshAnswer(t *testing.T, root string, st *index.Store, rel string, content []byte, q *engine.Request) [2]string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, rel), content, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.Open(context.Background(), root, engine.LoadOptions{Index: st, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := *q
	req.Root = root
	out, err := s.Query(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Render(false, false)
	return [2]string{hashOf([]byte(r.Output)), hashOf([]byte(r.Notes))}
}

// retainedRSS is the server's resident memory once the garbage is
// collected and returned to the system: what it keeps, not when its
// collector last ran (the server is this process).
func retainedRSS(t *testing.T, rs *realServer) int64 {
	debug.FreeOSMemory()
	return rs.status(t).RSSBytes
}
