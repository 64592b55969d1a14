package engine

import (
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/index"
)

// An IndexRun collects what one run of a command did with the on-disk
// index (what the load found, the notices it gave) and saves it as the
// root's last run, which ctxexpand index --stats shows. Its zero Store
// means the index is off: then it only passes notices on.
type IndexRun struct {
	Store *index.Store
	start time.Time
	// notify receives each notice after it is recorded (nil: none).
	notify func(string)

	mu    sync.Mutex
	load  IndexedLoad
	notes []string
}

// NewIndexRun starts a run on st (nil when the index is off) whose
// notices also go to notify.
func NewIndexRun(st *index.Store, notify func(string)) *IndexRun {
	return &IndexRun{Store: st, start: time.Now(), notify: notify}
}

// Notice records msg among the run's notices and passes it on.
func (r *IndexRun) Notice(msg string) {
	r.mu.Lock()
	r.notes = append(r.notes, msg)
	r.mu.Unlock()
	if r.notify != nil {
		r.notify(msg)
	}
}

// Wire sets the load options that feed this run: the index, its notices
// and what the load through it did. It leaves lo alone when the index is
// off.
func (r *IndexRun) Wire(lo *LoadOptions) {
	if r.Store == nil {
		return
	}
	lo.Index = r.Store
	lo.Notice = r.Notice
	lo.OnIndexed = func(l IndexedLoad) {
		r.mu.Lock()
		r.load = l
		r.mu.Unlock()
	}
}

// Load is what the run's load through the index did (zero before it
// ended, or without an index).
func (r *IndexRun) Load() IndexedLoad {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.load
}

// Finish saves the run's statistics as root's last run and trims the
// index when due.
func (r *IndexRun) Finish(root string) {
	if r.Store == nil {
		return
	}
	r.mu.Lock()
	run := index.Run{Time: r.start.UTC(), Duration: time.Since(r.start), Snapshot: r.load.Snapshot, Notes: r.notes}
	r.mu.Unlock()
	r.Store.SaveRun(root, run)
	r.Store.TrimIfDue()
}
