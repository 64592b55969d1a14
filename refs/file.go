package refs

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/editdist"
	"github.com/ctxexpand/ctxexpand/query"
)

// listing is the repository's file list, sorted, with a lower-case view
// for forgiving matches. It is read from list when first needed: a
// reference to a path that exists as named needs none, and listing a
// large tree costs more than the rest of resolving it.
type listing struct {
	list   func() []string
	once   sync.Once
	sorted []string
	lower  []string
}

func newListing(list func() []string) *listing { return &listing{list: list} }

// files returns the sorted listing and its lower-case view.
func (l *listing) files() (sorted, lower []string) {
	l.once.Do(func() {
		l.sorted = append([]string(nil), l.list()...)
		sort.Strings(l.sorted)
		l.lower = make([]string, len(l.sorted))
		for i, f := range l.sorted {
			l.lower[i] = strings.ToLower(f)
		}
	})
	return l.sorted, l.lower
}

// resolveFile finds the file a reference names and checks that it can be
// read: exact path, then the forgiving matches of the listing.
func resolveFile(root string, ix *listing, ref query.Ref, opt Options, r *Resolved) {
	want := strings.TrimPrefix(filepath.ToSlash(ref.Value), "./")
	if strings.HasPrefix(want, "~") {
		r.fail(fmt.Errorf("%s: home-directory paths are outside the repository: %w", ref.Value, analyze.ErrOutsideRoot))
		return
	}
	clean, err := analyze.ResolvePath(root, want)
	if err != nil {
		// Leaving the root is refused outright: no guessing at a file
		// inside that happens to share the name.
		r.fail(err)
		return
	}
	full := filepath.Join(root, filepath.FromSlash(clean))
	if st, err := os.Stat(full); err == nil {
		if ignored(clean, st.IsDir(), opt) {
			// The listing leaves these out already; named exactly, they
			// are refused, so that a query cannot pull a git-ignored
			// secret or git's credentials into the bundle.
			r.fail(fmt.Errorf("%s: %w (.gitignore, .ctxexpandignore, the configuration; git's own .git always)", ref.Value, ErrIgnored))
			return
		}
		if st.IsDir() {
			resolveDir(ix, clean, opt, r)
			return
		}
		loadFile(root, clean, ref, opt, r)
		return
	}
	cands := ix.candidates(clean)
	switch len(cands) {
	case 1:
		loadFile(root, cands[0], ref, opt, r)
	case 0:
		r.fail(fmt.Errorf("%s: %w", ref.Value, ErrNotFound))
		r.Suggestions = ix.closest(clean, opt.MaxSuggestions)
	default:
		r.fail(fmt.Errorf("%s: %w (%d); name more of the path", ref.Value, ErrAmbiguous, len(cands)))
		r.Suggestions = cands[:min(len(cands), opt.MaxSuggestions)]
	}
}

// candidates returns the listed files that a missing path may mean: the
// same path in another case, or files whose path ends with it (a unique
// basename when it has no slash). The first kind that finds any wins.
func (l *listing) candidates(p string) []string {
	sorted, lower := l.files()
	lp := strings.ToLower(p)
	var out []string
	for i, f := range lower {
		if f == lp {
			out = append(out, sorted[i])
		}
	}
	if len(out) > 0 {
		return out
	}
	suffix := "/" + p
	for _, f := range sorted {
		if strings.HasSuffix(f, suffix) {
			out = append(out, f)
		}
	}
	if len(out) > 0 {
		return out
	}
	lsuffix := "/" + lp
	for i, f := range lower {
		if strings.HasSuffix(f, lsuffix) {
			out = append(out, sorted[i])
		}
	}
	return out
}

// closest returns up to n listed paths closest to p by edit distance, of
// the whole path and of the base name, nearest first.
func (l *listing) closest(p string, n int) []string {
	lp := strings.ToLower(p)
	lbase := path.Base(lp)
	limit := max(2, len(lbase)/3)
	type cand struct {
		path string
		d    int
	}
	var cs []cand
	sorted, lower := l.files()
	for i, f := range lower {
		d := editdist.Runes(lbase, path.Base(f), limit)
		if strings.Contains(lp, "/") {
			d = min(d, editdist.Runes(lp, f, limit))
		}
		if d <= limit {
			cs = append(cs, cand{sorted[i], d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].path < cs[j].path
	})
	var out []string
	for _, c := range cs[:min(len(cs), n)] {
		out = append(out, c.path)
	}
	return out
}

// loadFile reads the file with the repository's safety limits, counts its
// lines and clamps the requested range.
func loadFile(root, rel string, ref query.Ref, opt Options, r *Resolved) {
	data, err := analyze.ReadSource(root, rel, opt.MaxFileSize)
	if err != nil {
		r.fail(err)
		return
	}
	lines := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	r.Path, r.Lines = rel, lines
	if ref.StartLine > 0 {
		if ref.StartLine > lines {
			r.fail(fmt.Errorf("%s#L%d: %w: the file has %d lines", rel, ref.StartLine, ErrLineRange, lines))
			return
		}
		r.Range = LineRange{Start: ref.StartLine, End: min(max(ref.EndLine, ref.StartLine), lines)}
	}
	r.Status = StatusOK
}

// resolveDir lists the source files under a directory reference.
func resolveDir(ix *listing, dir string, opt Options, r *Resolved) {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	if dir == "." || dir == "" {
		prefix = ""
	}
	files := []string{}
	sorted, _ := ix.files()
	for _, f := range sorted {
		if strings.HasPrefix(f, prefix) {
			files = append(files, f)
		}
	}
	r.Path = strings.TrimSuffix(dir, "/")
	if len(files) == 0 {
		r.fail(fmt.Errorf("%s: %w", dir, ErrNotSource))
		return
	}
	if len(files) > opt.MaxDirFiles {
		files = files[:opt.MaxDirFiles]
		r.Truncated = true
	}
	r.Files = files
	r.Status = StatusOK
}

// ignored reports whether a reference may not name the path: anything in
// git's own .git, and whatever opt.Ignore ignores.
func ignored(rel string, isDir bool, opt Options) bool {
	for _, seg := range strings.Split(rel, "/") {
		if strings.EqualFold(seg, ".git") {
			return true
		}
	}
	return opt.Ignore != nil && rel != "." && opt.Ignore(rel, isDir)
}
