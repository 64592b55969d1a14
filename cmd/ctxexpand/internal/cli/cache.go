package cli

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
)

// cacheOptions are the flags that choose the on-disk index.
type cacheOptions struct {
	Dir string
	Off bool
}

// cacheDirEnv overrides the default index directory.
const cacheDirEnv = "CTXEXPAND_CACHE_DIR"

func (c *cacheOptions) addFlags(f *pflag.FlagSet) {
	f.StringVar(&c.Dir, "cache-dir", "", "directory of the on-disk index (default $"+cacheDirEnv+", else ctxexpand under the user cache directory)")
	f.BoolVar(&c.Off, "no-cache", false, "neither read nor write the on-disk index: analyse everything afresh")
}

// dir is the directory the flags and environment choose, "" for the default.
func (c *cacheOptions) dir() string {
	if c.Dir != "" {
		return c.Dir
	}
	return os.Getenv(cacheDirEnv)
}

// open opens the index, or returns nil when it is off. An index that
// cannot be opened costs speed, not the run: it is reported as a notice.
func (c *cacheOptions) open(notice func(string)) *index.Store {
	if c.Off {
		return nil
	}
	st, err := index.Open(index.Options{Dir: c.dir(), Notice: notice})
	if err != nil {
		notice(fmt.Sprintf("index: %v; continuing without it", err))
		return nil
	}
	return st
}

// indexedRun collects what a run did with the index and saves it as the
// root's last run.
type indexedRun struct {
	st    *index.Store
	start time.Time
	out   func(string)
	prog  *progress

	mu    sync.Mutex
	load  engine.IndexedLoad
	notes []string
}

// start opens the index (nil when off) for one run; notices go to stderr
// unless quiet, and into the run's statistics.
func (c *cacheOptions) start(io *IO, quiet bool) *indexedRun {
	r := &indexedRun{start: time.Now(), out: noticeTo(io, quiet), prog: newProgress(io.Err, io.ErrIsTerminal, quiet)}
	r.st = c.open(r.notice)
	return r
}

func (r *indexedRun) notice(msg string) {
	r.prog.finish() // a notice line would break the bar
	r.mu.Lock()
	r.notes = append(r.notes, msg)
	r.mu.Unlock()
	r.out(msg)
}

// wire sets the load options that feed this run.
func (r *indexedRun) wire(lo *engine.LoadOptions) {
	if r.prog != nil {
		lo.Progress = r.prog.report
	}
	if r.st == nil {
		return
	}
	lo.Index = r.st
	lo.Notice = r.notice
	lo.OnIndexed = func(l engine.IndexedLoad) {
		r.mu.Lock()
		r.load = l
		r.mu.Unlock()
	}
}

// loaded ends the progress display: the load is over.
func (r *indexedRun) loaded() { r.prog.finish() }

// finish saves the run's statistics and trims the index when due.
func (r *indexedRun) finish(root string) {
	r.prog.finish()
	if r.st == nil {
		return
	}
	r.mu.Lock()
	run := index.Run{Time: r.start.UTC(), Duration: time.Since(r.start), Snapshot: r.load.Snapshot, Notes: r.notes}
	r.mu.Unlock()
	r.st.SaveRun(root, run)
	r.st.TrimIfDue()
}

// noticeTo writes notices to stderr unless quiet.
func noticeTo(io *IO, quiet bool) func(string) {
	return func(msg string) {
		if !quiet {
			fmt.Fprintln(io.Err, "ctxexpand: "+msg)
		}
	}
}
