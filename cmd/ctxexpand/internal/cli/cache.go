package cli

import (
	"fmt"
	"os"

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

// indexedRun is a run's engine.IndexRun with its progress display,
// which a notice ends (a notice line would break the bar).
type indexedRun struct {
	*engine.IndexRun
	prog *progress
}

// start opens the index (nil when off) for one run; notices go to stderr
// unless quiet, and into the run's statistics.
func (c *cacheOptions) start(io *IO, quiet bool) *indexedRun {
	prog, out := newProgress(io.Err, io.ErrIsTerminal, quiet), noticeTo(io, quiet)
	r := &indexedRun{prog: prog, IndexRun: engine.NewIndexRun(nil, func(msg string) { prog.finish(); out(msg) })}
	r.Store = c.open(r.Notice)
	return r
}

// wire sets the load options that feed this run: the progress display
// and the index (engine.IndexRun.Wire).
func (r *indexedRun) wire(lo *engine.LoadOptions) {
	if r.prog != nil {
		lo.Progress = r.prog.report
	}
	r.Wire(lo)
}

// loaded ends the progress display: the load is over.
func (r *indexedRun) loaded() { r.prog.finish() }

// finish saves the run's statistics and trims the index when due.
func (r *indexedRun) finish(root string) {
	r.prog.finish()
	r.Finish(root)
}

// noticeTo writes notices to stderr unless quiet.
func noticeTo(io *IO, quiet bool) func(string) {
	return func(msg string) {
		if !quiet {
			fmt.Fprintln(io.Err, "ctxexpand: "+msg)
		}
	}
}
