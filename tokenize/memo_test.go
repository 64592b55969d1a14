package tokenize

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// countingCounter counts with the estimate and records how often it was
// asked.
type countingCounter struct {
	mu    sync.Mutex
	calls int
	name  string
}

func (c *countingCounter) Name() string { return c.name }

func (c *countingCounter) Count(s string) int {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return Estimate(s)
}

func TestMemoCountsLikeItsCounter(t *testing.T) {
	exact, err := New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	m := NewMemo(0)
	w := m.Wrap(exact)
	if w.Name() != exact.Name() {
		t.Errorf("Name() = %q, want %q", w.Name(), exact.Name())
	}
	texts := []string{"", "short", strings.Repeat("func f() { return 1 }\n", 20), "héllo wörld " + strings.Repeat("x", 100)}
	for round := 0; round < 2; round++ {
		for _, s := range texts {
			if got, want := w.Count(s), exact.Count(s); got != want {
				t.Errorf("round %d: Count(%.20q) = %d, want %d", round, s, got, want)
			}
		}
	}
	st := m.Stats()
	// Two texts are long enough to be looked up: missed once, then hit.
	if st.Hits != 2 || st.Misses != 2 || st.Entries != 2 {
		t.Errorf("stats = %+v, want 2 hits, 2 misses, 2 entries", st)
	}
	if r := st.HitRate(); r != 0.5 {
		t.Errorf("HitRate() = %v, want 0.5", r)
	}
}

func TestMemoKeysByCounter(t *testing.T) {
	m := NewMemo(0)
	a := m.Wrap(&countingCounter{name: "a"})
	b := m.Wrap(&scaled{base: &countingCounter{name: "a"}, factor: 2, name: "a*2"})
	s := strings.Repeat("word ", 40)
	if got, want := a.Count(s), Estimate(s); got != want {
		t.Errorf("a.Count = %d, want %d", got, want)
	}
	if got, want := b.Count(s), 2*Estimate(s); got != want {
		t.Errorf("b.Count = %d, want %d (the other counter's entry was used)", got, want)
	}
	if st := m.Stats(); st.Misses != 2 || st.Hits != 0 {
		t.Errorf("stats = %+v, want 2 misses", st)
	}
}

func TestMemoBounded(t *testing.T) {
	const size = 256
	m := NewMemo(size)
	inner := &countingCounter{name: "estimate"}
	w := m.Wrap(inner)
	hot := strings.Repeat("the hot text ", 10)
	for i := 0; i < 50*size; i++ {
		w.Count(fmt.Sprintf("%0100d", i))
		w.Count(hot) // kept: asked for all along
	}
	st := m.Stats()
	if st.Entries > 2*size {
		t.Errorf("%d entries, want at most %d", st.Entries, 2*size)
	}
	if st.Misses > 50*size+memoShards {
		t.Errorf("%d misses: the text asked for all along was forgotten too often", st.Misses)
	}
	if w.Count(hot) != Estimate(hot) {
		t.Error("wrong count after evictions")
	}
}

func TestMemoNil(t *testing.T) {
	var m *Memo
	c := &countingCounter{name: "x"}
	if m.Wrap(c) != Counter(c) {
		t.Error("a nil memo wraps its counter")
	}
	if st := m.Stats(); st != (MemoStats{}) {
		t.Errorf("Stats() = %+v", st)
	}
}

// TestMemoConcurrent counts from several goroutines (run with -race).
func TestMemoConcurrent(t *testing.T) {
	m := NewMemo(64)
	inner := &countingCounter{name: "estimate"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := m.Wrap(inner)
			for i := 0; i < 500; i++ {
				s := fmt.Sprintf("%0100d", (i*7+g)%150)
				if got, want := w.Count(s), Estimate(s); got != want {
					t.Errorf("Count = %d, want %d", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if st := m.Stats(); st.Hits+st.Misses != 8*500 {
		t.Errorf("stats = %+v, want %d lookups", st, 8*500)
	}
}

// BenchmarkMemoCount compares counting a real Go file with the counter's
// chunk cache warm, with and without a warm memo in front of it.
func BenchmarkMemoCount(b *testing.B) {
	src := loadBench(b)
	c, err := New("o200k")
	if err != nil {
		b.Fatal(err)
	}
	Preload("o200k")
	for _, tc := range []struct {
		name string
		c    Counter
	}{{"chunk-cache", c}, {"memo", NewMemo(0).Wrap(c)}} {
		b.Run(tc.name, func(b *testing.B) {
			tc.c.Count(src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				tc.c.Count(src)
			}
		})
	}
}
