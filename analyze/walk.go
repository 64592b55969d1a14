package analyze

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// WalkOptions configures ListFiles. The zero value lists .go and .rs files,
// skips hidden and dependency directories and files over MaxFileSize.
type WalkOptions struct {
	// Langs restricts the listing (by extension, see LangOf); empty means
	// Go and Rust.
	Langs []Lang
	// AllFiles lists every regular file, whatever its extension (for
	// explicit references to documentation, configuration and the like);
	// Langs is then ignored.
	AllFiles bool
	// MaxFileSize skips larger files with a ProblemSkipped; 0 means MaxFileSize.
	MaxFileSize int64
	// MaxFiles stops the walk with a ProblemLimit after this many files; 0 means no limit.
	MaxFiles int
	// Ignore, when set, is asked about every path (slash-separated,
	// relative to the root) before it is listed or descended into.
	Ignore func(rel string, isDir bool) bool
}

// skipDirs are never descended into: VCS metadata, build output and
// dependency caches that no one edits by hand.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "target": true,
	".idea": true, ".vscode": true, ".cache": true,
}

// SkipsDir reports whether ListFiles leaves out every directory of this
// name, whatever the ignore rules say: hidden directories and those of
// skipDirs. Watchers of a tree use it to leave out what no load reads.
func SkipsDir(name string) bool {
	return skipDirs[name] || (strings.HasPrefix(name, ".") && name != ".")
}

// ListFiles walks root and returns the repository-relative, slash-separated
// paths of the source files in it, sorted, plus a problem for each file or
// directory it had to skip. Symbolic links are not followed (so a link
// loop cannot trap the walk), unreadable directories are reported and
// skipped, and the walk stops early when ctx is done.
func ListFiles(ctx context.Context, root string, opt WalkOptions) ([]string, []Problem, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, &fs.PathError{Op: "walk", Path: root, Err: ErrNotRegular}
	}
	want := map[Lang]bool{}
	langs := opt.Langs
	if len(langs) == 0 {
		langs = []Lang{LangGo, LangRust}
	}
	for _, l := range langs {
		want[l] = l != LangUnknown
	}
	maxSize := opt.MaxFileSize
	if maxSize <= 0 {
		maxSize = MaxFileSize
	}
	var files []string
	var probs []Problem
	walkErr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			probs = append(probs, Problem{Kind: ProblemSkipped, Path: rel, Msg: "unreadable: " + errText(err)})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if SkipsDir(name) {
				return filepath.SkipDir
			}
			if opt.Ignore != nil && opt.Ignore(rel, true) {
				return filepath.SkipDir
			}
			return nil
		}
		if !opt.AllFiles && !want[LangOf(name)] {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			probs = append(probs, Problem{Kind: ProblemSkipped, Path: rel, Msg: "symbolic link not followed"})
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if opt.Ignore != nil && opt.Ignore(rel, false) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			probs = append(probs, Problem{Kind: ProblemSkipped, Path: rel, Msg: "unreadable: " + errText(err)})
			return nil
		}
		if info.Size() > maxSize {
			probs = append(probs, Problem{Kind: ProblemSkipped, Path: rel, Msg: "larger than the file size limit"})
			return nil
		}
		if opt.MaxFiles > 0 && len(files) >= opt.MaxFiles {
			probs = append(probs, Problem{Kind: ProblemLimit, Msg: "file count limit reached; the rest of the tree was not listed"})
			return fs.SkipAll
		}
		files = append(files, rel)
		return nil
	})
	sort.Strings(files)
	if walkErr != nil {
		return files, probs, walkErr
	}
	return files, probs, nil
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Walks keeps the results of walks of one tree between loads, for a
// caller that reloads the tree often and knows when a walk could find
// something new: a resident session (engine/residentload.go) forgets them
// unless every change since the last load was to the content of a file
// that was listed, stays a regular file and stays under the size limit,
// which none of the walks here can tell apart. Between two calls of
// Forget each walk, named by a key that stands for its root and options,
// runs once. The nil *Walks keeps nothing. What a walk returns is shared
// by every later caller: callers must not change it.
type Walks struct {
	mu   sync.Mutex
	gen  uint64
	done map[string]any
}

// Forget drops every walk kept.
func (w *Walks) Forget() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.gen++
	w.done = nil
	w.mu.Unlock()
}

// Walked returns what walk returned for key since the last Forget, or
// calls it. A result that walk says is incomplete (keep false: the walk
// was stopped) is returned and not kept, and so is one whose walk
// overlapped a Forget.
func Walked[T any](w *Walks, key string, walk func() (v T, keep bool)) T {
	if w == nil {
		v, _ := walk()
		return v
	}
	w.mu.Lock()
	old, ok := w.done[key]
	gen := w.gen
	w.mu.Unlock()
	if ok {
		return old.(T)
	}
	v, keep := walk()
	if keep {
		w.mu.Lock()
		if w.gen == gen {
			if w.done == nil {
				w.done = map[string]any{}
			}
			w.done[key] = v
		}
		w.mu.Unlock()
	}
	return v
}

// listing is what ListFiles returns.
type listing struct {
	files []string
	probs []Problem
	err   error
}

// ListFiles is analyze.ListFiles, kept under key (see Walks): the slices
// returned are shared and must not be changed.
func (w *Walks) ListFiles(ctx context.Context, root, key string, opt WalkOptions) ([]string, []Problem, error) {
	l := Walked(w, key, func() (listing, bool) {
		files, probs, err := ListFiles(ctx, root, opt)
		return listing{files, probs, err}, ctx.Err() == nil
	})
	return l.files, l.probs, l.err
}
