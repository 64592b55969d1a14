package engine

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/githistory"
	"github.com/ctxexpand/ctxexpand/index"
)

// Session is a loaded repository that answers queries.
type Session struct {
	Root     string
	Facts    *analyze.Facts
	Engine   *expand.Engine
	LoadTime time.Duration
	content  *contentCache

	// FixedCommit, when set, is reported as the commit instead of asking
	// git (for golden tests of a tree inside another repository).
	FixedCommit string

	commitOnce sync.Once
	commit     string

	// saving is what the load is still writing to the index (Close).
	saving *indexedState

	// A resident session's memory of the index (residentload.go): what
	// Persist stores, and from what it was loaded.
	resident   *residentIndex
	loadOpts   LoadOptions
	loadHashes map[string]string
	lexEncode  func() []byte // the lexical index's encoding, for Persist

	// history is the repository's recent version-control history (nil
	// when there is none or it was not asked for).
	history *githistory.Stats

	// ignore is LoadOptions.Ignore, kept so that @reference searches
	// skip what loading skipped.
	ignore func(rel string, isDir bool) bool
	// log is LoadOptions.Logger (log.go), for the phases of queries.
	log    *slog.Logger
	index  *index.Store // the on-disk index, or nil
	tokens *tokenStore  // token counts kept in it (tokens.go)
}

// Open loads and indexes the repository at root.
func Open(ctx context.Context, root string, opt LoadOptions) (*Session, error) {
	return open(ctx, root, opt, nil, Changes{All: true})
}

// open loads root; with prev, a session of the same root and options
// opened earlier, it reuses what ch says cannot have changed (reopen.go).
func open(ctx context.Context, root string, opt LoadOptions, prev *Session, ch Changes) (*Session, error) {
	start := time.Now()
	if opt.Resident {
		// The text of what the load reads stays with the session.
		opt.sources = newSourceSet()
	}
	if opt.Index != nil {
		opt.state = &indexedState{}
		if opt.Resident {
			if prev != nil && prev.resident != nil {
				opt.resident = prev.resident
			} else {
				opt.resident = newResidentIndex(opt.Index, root)
			}
			opt.changes = ch
		}
	}
	lctx, cancel := loadContext(ctx)
	defer cancel()
	hist := make(chan *githistory.Stats, 1)
	hopt := opt // the history's own copy: the load below changes opt
	go func() {
		if hopt.NoHistory {
			hist <- nil
			return
		}
		if prev != nil && !ch.All && !ch.Head {
			hist <- prev.history
			return
		}
		st, _ := loadHistory(lctx, root, hopt) // history.go
		hist <- st
	}()
	facts, err := Load(lctx, root, opt)
	if err != nil {
		<-hist
		return nil, err
	}
	cache := newContentCache(facts)
	if opt.Resident {
		var before *contentCache
		if prev != nil {
			before = prev.content
		}
		cache.pin(opt.sources, before) // source.go
		opt.sources = nil              // what the facts do not hold goes
	}
	indexStart := time.Now()
	src, indexed := indexedSource(cache, opt, root, opt.state)
	eng, err := newEngine(ctx, facts, src) // deadline.go
	indexed(err == nil && !facts.Partial)
	if err != nil {
		opt.state.wait()
		<-hist
		return nil, err
	}
	st := <-hist
	if st != nil && st.NumPrior() > 0 {
		eng.Prior = make([]float64, len(facts.Files))
		for i, f := range facts.Files {
			eng.Prior[i] = st.Prior(f.Path)
		}
		eng.Recency = recency(st, facts)
		eng.PriorDetail = func(f analyze.FileID) string {
			return fmt.Sprintf("changed in %d of the last %d commits", st.Touches[facts.Files[f].Path], st.NumPrior())
		}
	}
	logPhase(ctx, opt.Logger, "index", indexStart, "nodes", eng.Graph.NumNodes(), "graph_edges", eng.Graph.NumEdges())
	s := &Session{Root: root, Facts: facts, Engine: eng, LoadTime: time.Since(start), content: cache, ignore: opt.Ignore, log: opt.Logger, history: st, saving: opt.state,
		index: opt.Index, resident: opt.resident, loadOpts: opt}
	if opt.state != nil {
		s.loadHashes = opt.state.hashes
	}
	if ls, ok := src.(*lexSource); ok && ls.resident {
		s.lexEncode = ls.encode
	}
	if !opt.Resident {
		// A resident session's counts stay in the process's counters
		// (counterFor); reading and writing the pack per query would
		// cost more than it saves.
		s.tokens = newTokenStore(opt, root)
	}
	if prev != nil && !ch.All && !ch.Head {
		s.FixedCommit = prev.Commit()
	}
	return s, nil
}

// Close returns once the session's writes to the on-disk index are done.
// A session opened with an index writes what its load learned while it
// answers queries; a process that exits without Close may lose those
// writes (never corrupt the index: every write is atomic). Close may be
// called more than once.
func (s *Session) Close() {
	s.saving.wait()
}

// Commit is the git commit the repository is at, or "" when it is not a
// git checkout (or git is missing). Computed once per session.
func (s *Session) Commit() string {
	s.commitOnce.Do(func() {
		if s.FixedCommit != "" {
			s.commit = s.FixedCommit
			return
		}
		cmd := exec.Command("git", "-C", s.Root, "rev-parse", "--verify", "--quiet", "HEAD")
		b, err := cmd.Output()
		if err == nil {
			s.commit = strings.TrimSpace(string(b))
		}
	})
	return s.commit
}
