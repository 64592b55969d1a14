package resident

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// poller is the source used when no watcher can be had: each sync walks
// the tree and compares every input file's size, modification and change
// times and inode with the last walk's. It costs a walk per query (tens
// of milliseconds on a large tree) but misses nothing a watcher would see.
type poller struct {
	root   string
	ignore func(string, bool) bool
	pend   *pending

	mu     sync.Mutex // one walk at a time
	last   map[string]stamp
	goneCh chan struct{}
	gone1  sync.Once
}

func newPoller(ctx context.Context, root string, ignore func(string, bool) bool, pend *pending) (*poller, error) {
	p := &poller{root: root, ignore: ignore, pend: pend, goneCh: make(chan struct{})}
	last, err := p.walk(ctx)
	if err != nil {
		return nil, err
	}
	p.last = last
	return p, nil
}

// walk stamps every file that matters.
func (p *poller) walk(ctx context.Context) (map[string]stamp, error) {
	files, _, err := analyze.ListFiles(ctx, p.root, analyze.WalkOptions{AllFiles: true, Ignore: p.ignore})
	if err != nil && len(files) == 0 {
		return nil, err
	}
	out := make(map[string]stamp, len(files))
	for _, f := range files {
		if classify(f).empty() {
			continue
		}
		st, err := os.Lstat(filepath.Join(p.root, filepath.FromSlash(f)))
		if err != nil {
			continue // gone since the listing: as if not listed
		}
		out[f] = stampOf(st)
	}
	return out, ctx.Err()
}

func (p *poller) sync(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := os.Stat(p.root); err != nil {
		p.gone1.Do(func() { close(p.goneCh) })
		return nil
	}
	now, err := p.walk(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.pend.add(batch{all: true})
		return nil
	}
	var b batch
	for f, s := range now {
		if old, ok := p.last[f]; !ok || old != s {
			b.add(classify(f))
		}
	}
	for f := range p.last {
		if _, ok := now[f]; !ok {
			b.add(classify(f))
		}
	}
	p.last = now
	p.pend.add(b)
	return nil
}

func (p *poller) gone() <-chan struct{} { return p.goneCh }
func (p *poller) close() error          { return nil }

// stamp is what a file's metadata says about its content.
type stamp struct {
	size         int64
	mtime, ctime time.Time
	ino          uint64
}
