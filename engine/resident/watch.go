package resident

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/engine"
)

// source turns what happens to the files under a root into pending
// changes.
type source interface {
	// sync returns once every change made before the call is recorded.
	sync(ctx context.Context) error
	// gone is closed when the root itself was removed or renamed.
	gone() <-chan struct{}
	close() error
}

// rulesFiles are the files whose change changes which files are read or
// how they are classified: the configuration and the ignore files.
var rulesFiles = map[string]bool{".gitignore": true, ".ctxexpandignore": true, ".ctxexpand.toml": true}

// classify says what a change to the file rel means.
func classify(rel string) batch {
	switch {
	case rulesFiles[path.Base(rel)]:
		return batch{rules: true}
	case engine.IsInput(rel):
		return batch{paths: map[string]bool{rel: true}}
	}
	return batch{}
}

// syncTimeout is how long a cookie may take to come back before the
// watcher is distrusted and the tree compared as a whole.
const syncTimeout = 5 * time.Second

// watcher is the fsnotify source. Directories are watched one by one
// (inotify is not recursive): those of the tree at start, and each new one
// as its creation is reported, with the files it already holds recorded.
type watcher struct {
	root      string // absolute, as served
	cookieDir string // private directory the cookies are written to
	ignore    func(rel string, isDir bool) bool
	pend      *pending
	logf      func(string, ...any)
	fsw       *fsnotify.Watcher

	mu      sync.Mutex
	dirs    map[string]bool // repository-relative watched directories ("." is the root)
	cookies map[string]chan struct{}
	next    uint64
	goneCh  chan struct{}
	goneSet bool
	loopEnd chan struct{}
}

// errWatchLimit says the tree has more directories than the watches the
// system allows.
var errWatchLimit = errors.New("the system's limit on watched directories was reached (raise fs.inotify.max_user_watches)")

// newWatcher watches root's tree and cookieDir, which must exist and
// belong to this process alone.
func newWatcher(root, cookieDir string, ignore func(string, bool) bool, pend *pending, logf func(string, ...any)) (*watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("starting the file watcher: %w", err)
	}
	w := &watcher{root: root, cookieDir: cookieDir, ignore: ignore, pend: pend, logf: logf, fsw: fsw,
		dirs: map[string]bool{}, cookies: map[string]chan struct{}{}, goneCh: make(chan struct{}), loopEnd: make(chan struct{})}
	if err := fsw.Add(cookieDir); err != nil {
		fsw.Close()
		return nil, fmt.Errorf("watching %s: %w", cookieDir, err)
	}
	go w.loop()
	if _, err := w.addTree("."); err != nil {
		w.close()
		return nil, err
	}
	return w, nil
}

// addTree watches the directory rel and every directory below it that a
// load would read, and returns the files a load reads that it holds.
func (w *watcher) addTree(rel string) ([]string, error) {
	var files []string
	start := filepath.Join(w.root, filepath.FromSlash(rel))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // unreadable below: the loaders report it
		}
		r, _ := filepath.Rel(w.root, p)
		r = filepath.ToSlash(r)
		if d.IsDir() {
			if r != "." && (analyze.SkipsDir(d.Name()) || (w.ignore != nil && w.ignore(r, true))) {
				return filepath.SkipDir
			}
			// Watch first, then read the entries (WalkDir reads them
			// after this call): a file created in between is reported
			// by the watch or listed, never missed.
			if err := w.fsw.Add(p); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return filepath.SkipDir
				}
				if isLimit(err) {
					return errWatchLimit
				}
				return fmt.Errorf("watching %s: %w", p, err)
			}
			w.mu.Lock()
			w.dirs[r] = true
			w.mu.Unlock()
			return nil
		}
		if w.ignore != nil && w.ignore(r, false) {
			return nil
		}
		files = append(files, r)
		return nil
	})
	return files, err
}

// removeTree forgets the watched directory rel and those below it.
func (w *watcher) removeTree(rel string) {
	w.mu.Lock()
	var gone []string
	for d := range w.dirs {
		if d == rel || strings.HasPrefix(d, rel+"/") {
			gone = append(gone, d)
			delete(w.dirs, d)
		}
	}
	w.mu.Unlock()
	for _, d := range gone {
		w.fsw.Remove(filepath.Join(w.root, filepath.FromSlash(d))) // already gone with the directory, mostly
	}
}

func (w *watcher) loop() {
	defer close(w.loopEnd)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// An overflow lost events; any other error may have.
			// fsnotify sends errors and events from one goroutine in
			// the kernel's order, so a cookie after the loss still
			// finds it recorded.
			w.logf("file watcher: %v; comparing the whole tree", err)
			w.pend.add(batch{all: true})
		}
	}
}

func (w *watcher) handle(ev fsnotify.Event) {
	if dir, name := filepath.Split(ev.Name); filepath.Clean(dir) == w.cookieDir {
		if ev.Has(fsnotify.Create) {
			w.mu.Lock()
			if ch, ok := w.cookies[name]; ok {
				close(ch)
				delete(w.cookies, name)
			}
			w.mu.Unlock()
		}
		return
	}
	if ev.Name == w.root {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.markGone()
		}
		return
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return
	}
	rel = filepath.ToSlash(rel)
	switch {
	case ev.Has(fsnotify.Create):
		st, err := os.Lstat(ev.Name)
		if err == nil && st.IsDir() {
			if analyze.SkipsDir(path.Base(rel)) || (w.ignore != nil && w.ignore(rel, true)) {
				return
			}
			files, err := w.addTree(rel)
			if err != nil {
				w.logf("file watcher: %v; comparing the whole tree", err)
				w.pend.add(batch{all: true})
				return
			}
			b := batch{paths: map[string]bool{rel: true}}
			for _, f := range files {
				b.add(classify(f))
			}
			w.pend.add(b)
			return
		}
		w.file(rel)
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		w.mu.Lock()
		wasDir := w.dirs[rel]
		w.mu.Unlock()
		if wasDir {
			// Its files are gone from here (a rename reports the new
			// name as a creation).
			w.removeTree(rel)
			w.pend.add(batch{paths: map[string]bool{rel: true}})
			return
		}
		w.file(rel)
	case ev.Has(fsnotify.Write):
		w.file(rel)
	}
	// Chmod alone changes nothing a load reads.
}

// file records a change to the file rel, when it matters.
func (w *watcher) file(rel string) {
	b := classify(rel)
	if b.empty() {
		return
	}
	if !b.rules && w.ignore != nil && w.ignore(rel, false) {
		return
	}
	w.pend.add(b)
}

func (w *watcher) markGone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.goneSet {
		w.goneSet = true
		close(w.goneCh)
	}
}

func (w *watcher) gone() <-chan struct{} { return w.goneCh }

// sync writes a cookie and waits for its event.
func (w *watcher) sync(ctx context.Context) error {
	w.mu.Lock()
	w.next++
	name := fmt.Sprintf("sync-%d-%d", os.Getpid(), w.next)
	ch := make(chan struct{})
	w.cookies[name] = ch
	w.mu.Unlock()
	p := filepath.Join(w.cookieDir, name)
	defer func() {
		w.mu.Lock()
		delete(w.cookies, name)
		w.mu.Unlock()
		os.Remove(p)
	}()
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		w.logf("file watcher: writing a sync cookie: %v; comparing the whole tree", err)
		w.pend.add(batch{all: true})
		return nil
	}
	t := time.NewTimer(syncTimeout)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		w.logf("file watcher: no event for a sync cookie in %v; comparing the whole tree", syncTimeout)
		w.pend.add(batch{all: true})
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *watcher) close() error {
	err := w.fsw.Close()
	<-w.loopEnd
	return err
}
