package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/pipeline"
)

// manifests are the project files whose change also changes the analysis
// (module paths, dependencies, crate layout), besides the sources.
var manifests = []string{"go.mod", "go.work", "go.sum", "Cargo.toml", "Cargo.lock"}

// fingerprint is a cheap summary of the repository on disk: the sorted
// source paths with their sizes and modification times, and the same for
// the root's manifests. Reading no file contents, it costs one directory
// walk and a stat per source file.
type fingerprint struct {
	sum   [sha256.Size]byte
	files int
}

// takeFingerprint walks root the way the loaders do.
func takeFingerprint(ctx context.Context, root string, opt pipeline.LoadOptions) (fingerprint, error) {
	files, _, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{Ignore: opt.Ignore})
	if err != nil && len(files) == 0 {
		return fingerprint{}, err
	}
	h := sha256.New()
	var buf [16]byte
	add := func(rel string) {
		h.Write([]byte(rel))
		h.Write([]byte{0})
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			h.Write([]byte{1}) // absent or unreadable: a state of its own
			return
		}
		binary.LittleEndian.PutUint64(buf[:8], uint64(st.Size()))
		binary.LittleEndian.PutUint64(buf[8:], uint64(st.ModTime().UnixNano()))
		h.Write(buf[:])
	}
	for _, m := range manifests {
		add(m)
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return fingerprint{}, err
		}
		add(f)
	}
	var fp fingerprint
	copy(fp.sum[:], h.Sum(nil))
	fp.files = len(files)
	return fp, nil
}

// loaded is the session the server holds, with what it was built from.
type loaded struct {
	s       *pipeline.Session
	fp      fingerprint
	checked time.Time // when fp was last compared with the disk
}

// errLoad marks a repository that could not be loaded.
var errLoad = errors.New("the repository could not be loaded")

// session returns the loaded repository, loading it on first use and
// again when asked to (refresh) or when the files on disk changed since it
// was loaded. The disk is compared at most once per Options.CheckInterval;
// a negative interval turns the check off. It says in reloaded why it
// loaded, "" when the held session was used. The caller holds s.work.
func (s *Server) session(ctx context.Context, refresh bool) (sess *pipeline.Session, reloaded string, err error) {
	now := s.now()
	switch {
	case s.cur == nil:
		reloaded = "loaded"
	case refresh:
		reloaded = "reloaded on request"
	case s.opts.CheckInterval >= 0 && now.Sub(s.cur.checked) >= s.opts.CheckInterval:
		fp, err := takeFingerprint(ctx, s.opts.Root, s.opts.Load)
		if err != nil {
			// The held session is still an answer; the next call retries.
			s.logf("checking %s for changes: %v", s.opts.Root, err)
			return s.cur.s, "", nil
		}
		s.cur.checked = now
		if fp == s.cur.fp {
			return s.cur.s, "", nil
		}
		reloaded = "reloaded: files changed on disk"
	default:
		return s.cur.s, "", nil
	}

	fp, fpErr := takeFingerprint(ctx, s.opts.Root, s.opts.Load)
	start := time.Now()
	ns, err := s.open(ctx, s.opts.Root, s.opts.Load)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", fmt.Errorf("%w: loading %s was cancelled or timed out (%v); call again, or start the server with a larger --timeout", errLoad, s.opts.Root, ctx.Err())
		}
		return nil, "", fmt.Errorf("%w: loading %s: %v; check that --root names a Go or Rust repository the server can read", errLoad, s.opts.Root, err)
	}
	if fpErr != nil {
		// Never equal to a later fingerprint, so the next check reloads.
		fp = fingerprint{files: -1}
	}
	s.cur = &loaded{s: ns, fp: fp, checked: now}
	s.logf("%s %s: %s in %v", reloaded, s.opts.Root, ns.Facts.Summary(), time.Since(start).Round(time.Millisecond))
	return ns, reloaded, nil
}

// relPath turns a path an agent wrote (repository-relative, "./"-prefixed
// or absolute under the root) into a repository path, refusing paths that
// leave the root.
func relPath(root, p string) (string, error) {
	rel, err := analyze.ResolvePath(root, p)
	if err != nil {
		if errors.Is(err, analyze.ErrOutsideRoot) {
			return "", fmt.Errorf("%s is outside the repository %s: give a path relative to the repository root", p, root)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist in the repository: give a path relative to the repository root", p)
		}
		return "", fmt.Errorf("%s: %v", p, err)
	}
	return rel, nil
}
