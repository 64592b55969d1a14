package resident

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// What an engine measures of itself, for serve --status and the server's
// metrics: the token-count memo its queries share (and the process's memo
// of Go skeletons), how long an edit took
// to become an answer, and how much the last update analysed again.

// Figures are an engine's measurements. Their JSON form is the one
// serve --status carries over the resident server's socket.
type Figures struct {
	// TokenHits and TokenMisses count the lookups of whole texts in the
	// token-count memo the queries share across generations;
	// TokenEntries is how many counts it holds (all zero when the engine
	// has none).
	TokenHits    uint64 `json:"token_hits,omitempty"`
	TokenMisses  uint64 `json:"token_misses,omitempty"`
	TokenEntries int    `json:"token_entries,omitempty"`
	// SkeletonHits and SkeletonMisses count the lookups in the process's
	// memo of Go skeletons (bundle.SkeletonMemoStats): the rendered slice
	// that costs the most to make, shared by every query of the process;
	// SkeletonEntries is how many it holds.
	SkeletonHits    uint64 `json:"skeleton_hits,omitempty"`
	SkeletonMisses  uint64 `json:"skeleton_misses,omitempty"`
	SkeletonEntries int    `json:"skeleton_entries,omitempty"`
	// Edits is how many updates applied changes noticed in the tree (the
	// first load is not one); EditP50, P95 and P99 are percentiles, over
	// the last WindowSize of them, of the time from the first change of
	// an update being noticed (a watcher's event, or a query that found
	// it) to the generation holding it being ready: the time to a fresh
	// answer, the settling delay included.
	Edits   int64         `json:"edits,omitempty"`
	EditP50 time.Duration `json:"edit_p50,omitempty"`
	EditP95 time.Duration `json:"edit_p95,omitempty"`
	EditP99 time.Duration `json:"edit_p99,omitempty"`
	// EditTotal is the time of all of them (not carried in JSON).
	EditTotal time.Duration `json:"-"`
	// Reanalysed is how many files the last update analysed again: the
	// files whose content differs from the previous generation's (new
	// files among them); every file on the first load and on one after
	// the configuration or ignore rules changed. Files is how many the
	// generation holds.
	Reanalysed int `json:"reanalysed,omitempty"`
	Files      int `json:"files,omitempty"`
	// Primed is how many files of generation PrimedGen the last priming
	// that finished prepared for queries in idle time (prime.go), and
	// PrimeTook how long it took, its pauses for queries included.
	Primed    int           `json:"primed,omitempty"`
	PrimedGen uint64        `json:"primed_gen,omitempty"`
	PrimeTook time.Duration `json:"prime_took,omitempty"`
}

// TokenHitRate is the share of the token memo's lookups that found the
// count, 0 before any.
func (f *Figures) TokenHitRate() float64 {
	return tokenize.MemoStats{Hits: f.TokenHits, Misses: f.TokenMisses}.HitRate()
}

// SkeletonHitRate is the share of the skeleton memo's lookups that found
// the skeleton, 0 before any.
func (f *Figures) SkeletonHitRate() float64 {
	return tokenize.MemoStats{Hits: f.SkeletonHits, Misses: f.SkeletonMisses}.HitRate()
}

// figures are what an engine keeps for its Figures.
type figures struct {
	memo       *tokenize.Memo // nil when Options.TokenMemoSize < 0
	edits      Window
	reanalysed atomic.Int64
	files      atomic.Int64
	figMu      sync.Mutex // guards primeFig
	primeFig   struct {
		files int
		gen   uint64
		took  time.Duration
	}
}

func (f *figures) report() Figures {
	tok, skel := f.memo.Stats(), bundle.SkeletonMemoStats()
	out := Figures{TokenHits: tok.Hits, TokenMisses: tok.Misses, TokenEntries: tok.Entries,
		SkeletonHits: skel.Hits, SkeletonMisses: skel.Misses, SkeletonEntries: skel.Entries,
		Reanalysed: int(f.reanalysed.Load()), Files: int(f.files.Load())}
	f.figMu.Lock()
	out.Primed, out.PrimedGen, out.PrimeTook = f.primeFig.files, f.primeFig.gen, f.primeFig.took
	f.figMu.Unlock()
	out.Edits, out.EditP50, out.EditP95, out.EditP99 = f.edits.Percentiles()
	out.EditTotal = f.edits.Sum()
	return out
}

// recordUpdate measures an update from prev (nil for the first load) to
// next, whose first change was noticed at noticed; full says it loaded
// everything again (the configuration changed).
func (r *Repo) recordUpdate(prev, next *Snapshot, full bool, noticed time.Time) {
	n := next.Session.Facts
	r.files.Store(int64(len(n.Files)))
	if prev == nil {
		r.reanalysed.Store(int64(len(n.Files)))
		return
	}
	if full {
		r.reanalysed.Store(int64(len(n.Files)))
	} else {
		r.reanalysed.Store(int64(changedFiles(prev.Session.Facts, n)))
	}
	if !noticed.IsZero() {
		r.edits.Add(next.At.Sub(noticed))
	}
}

// changedFiles counts the files of next whose content hash is not the
// one prev holds for the same path (or that prev lacks); a file without a
// hash counts as changed.
func changedFiles(prev, next *analyze.Facts) int {
	if prev == nil || next == nil {
		return 0
	}
	old := make(map[string]string, len(prev.Files))
	for _, f := range prev.Files {
		old[f.Path] = f.Hash
	}
	n := 0
	for _, f := range next.Files {
		if h, ok := old[f.Path]; !ok || h == "" || h != f.Hash {
			n++
		}
	}
	return n
}
