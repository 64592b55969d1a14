package golang

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// go list opens every .go file in the directories it lists, following
// symbolic links. A link named x.go can point out of the repository (its
// first token then shows in go list's error) or at a device or pipe
// (/dev/stdin, /dev/zero, a FIFO), and reading a named pipe blocks
// forever. So before listing, the loader finds the .go entries that are
// not regular files and hands go list an overlay that replaces each with
// a stub excluded by a build constraint: go list never opens them, and
// the loader never reads them (the file walk does not follow links
// either).

// ignoredStub is what go list sees instead of a .go entry that is not a
// regular file.
var ignoredStub = []byte("//go:build ignore\n\npackage ignored\n")

// specialGoFiles walks root as go list's "./..." does (every directory but
// those whose name starts with "." or "_" and testdata; vendor included,
// since a vendored package may be loaded) and returns an overlay stubbing
// out the .go entries that are not regular files, plus a problem for each
// such entry that is not a symbolic link (the file walk already reports
// those) and that ignore does not cover.
func specialGoFiles(ctx context.Context, root string, ignore func(rel string, isDir bool) bool) (map[string][]byte, []analyze.Problem) {
	var overlay map[string][]byte
	var probs []analyze.Problem
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		if err != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || d.Type().IsRegular() {
			return nil
		}
		if overlay == nil {
			overlay = make(map[string][]byte)
		}
		overlay[p] = ignoredStub
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if ignore != nil && ignore(rel, false) {
			return nil
		}
		probs = append(probs, analyze.Problem{Kind: analyze.ProblemSkipped, Path: rel,
			Msg: "not a regular file (" + specialKind(d.Type()) + ")"})
		return nil
	})
	return overlay, probs
}

// specialGoFilesKept is specialGoFiles, kept in walks (analyze.Walks):
// the overlay and problems returned are shared and must not be changed.
func specialGoFilesKept(ctx context.Context, root string, ignore func(rel string, isDir bool) bool, walks *analyze.Walks) (map[string][]byte, []analyze.Problem) {
	type special struct {
		overlay map[string][]byte
		probs   []analyze.Problem
	}
	s := analyze.Walked(walks, "golang special "+root, func() (special, bool) {
		o, p := specialGoFiles(ctx, root, ignore)
		return special{o, p}, ctx.Err() == nil
	})
	return s.overlay, s.probs
}

// specialKind names a file type for a problem message.
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}
