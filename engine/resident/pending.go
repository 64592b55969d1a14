package resident

import (
	"sort"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/engine"
)

// batch is the changes recorded since the last update.
type batch struct {
	paths map[string]bool
	all   bool // anything may have changed
	rules bool // ignore rules or configuration changed: reconfigure first
	head  bool
}

func (b batch) empty() bool { return !b.all && !b.rules && !b.head && len(b.paths) == 0 }

func (b *batch) add(o batch) {
	b.all = b.all || o.all
	b.rules = b.rules || o.rules
	b.head = b.head || o.head
	for p := range o.paths {
		if b.paths == nil {
			b.paths = map[string]bool{}
		}
		b.paths[p] = true
	}
}

// changes is the batch as the pipeline takes it.
func (b *batch) changes() engine.Changes {
	ch := engine.Changes{All: b.all || b.rules, Head: b.head}
	for p := range b.paths {
		ch.Paths = append(ch.Paths, p)
	}
	sort.Strings(ch.Paths)
	return ch
}

// pending collects changes from the watcher (or poller) and the Repo
// until the updater takes them. seq counts recordings, so that a query
// can wait for exactly the changes recorded before it.
type pending struct {
	mu  sync.Mutex
	b   batch
	seq uint64
	// since is when the first change of b was recorded (noticed), for
	// the edit-to-fresh-answer latency.
	since time.Time
	wake  chan struct{} // signalled (without blocking) on every recording
}

func newPending() *pending { return &pending{wake: make(chan struct{}, 1)} }

func (p *pending) add(o batch) {
	if o.empty() {
		return
	}
	p.mu.Lock()
	if p.b.empty() {
		p.since = time.Now()
	}
	p.b.add(o)
	p.seq++
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pending) path(rel string) { p.add(batch{paths: map[string]bool{rel: true}}) }

// now is the number of recordings so far.
func (p *pending) now() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seq
}

// take removes the recorded changes and says how many recordings they
// hold and when the first of them was recorded.
func (p *pending) take() (batch, uint64, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, since := p.b, p.since
	p.b, p.since = batch{}, time.Time{}
	return b, p.seq, since
}
