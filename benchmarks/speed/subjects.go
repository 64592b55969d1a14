package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// spec is a repository to measure and the query asked of it.
type spec struct {
	name  string
	lang  string // "go" or "rust"
	where string // "goroot", "checkout" or "repo"
	id    string // OWNER+NAME; for "goroot", the directory under $(go env GOROOT)/src ("" for all of it)
	query string
}

// subjects are measured in this order; those not present are skipped. The
// standard library comes last: its cold runs (ctxexpand's, over 1 GB, and
// gopls's on the whole standard library, near 2 GB) left the machine slow
// for a while, and hugo, measured next, took 3.7 s cold in two full runs
// out of four where it took 2.7-2.9 s on its own.
var subjects = []spec{
	{"hugo", "go", "checkout", "gohugoio+hugo", "fix the shortcode rendering of nested templates"},
	{"prometheus", "go", "checkout", "prometheus+prometheus", "the query engine returns wrong results for rate over counter resets"},
	{"grpc-go", "go", "checkout", "grpc+grpc-go", "xds client retries the connection too often"},
	{"tokio", "rust", "repo", "tokio-rs+tokio", "the multi-threaded scheduler wakes tasks late"},
	{"clap", "rust", "repo", "clap-rs+clap", "fix the help output for subcommands with aliases"},
	{"nushell", "rust", "checkout", "nushell+nushell", "the table command truncates wide columns too early"},
	// The largest repository measured: 2,200 Go files of its own (385k
	// lines) over 8,200 vendored ones, in nested modules.
	{"moby", "go", "repo", "moby+moby", "the daemon leaks containers when a restart fails"},
	{"net/http", "go", "goroot", "net/http", "the http server closes idle keep-alive connections too early"},
	{"go/src", "go", "goroot", "", "the http server closes idle keep-alive connections too early"},
}

// subject is a prepared repository.
type subject struct {
	spec
	root     string   // what ctxexpand and the peers read
	readOnly bool     // no edits allowed (the Go tree itself)
	commit   string   // the commit measured, or the Go version
	files    int      // source files of the language
	lines    int      // their lines
	sources  []string // repository-relative non-test source files, sorted, candidates for edits
	goplsPos string   // FILE:#OFFSET of a function name, for gopls references
}

func prepare(ctx context.Context, o *options, sp spec) (*subject, error) {
	s := &subject{spec: sp}
	switch sp.where {
	case "goroot":
		out, err := exec.CommandContext(ctx, "go", "env", "GOROOT", "GOVERSION").Output()
		if err != nil {
			return nil, fmt.Errorf("go env: %w", err)
		}
		f := strings.Fields(string(out))
		if len(f) < 2 {
			return nil, fmt.Errorf("go env printed %q", out)
		}
		// Measured in place and never edited: a directory under GOROOT/src
		// belongs to the standard library's module, whose packages the go
		// command resolves only there (a copy elsewhere could not import
		// internal/... or the vendored golang.org/x packages).
		s.root, s.commit, s.readOnly = filepath.Join(f[0], "src", filepath.FromSlash(sp.id)), f[1], true
		if _, err := os.Stat(s.root); err != nil {
			return nil, fmt.Errorf("no %s in this Go installation: %w", sp.id, err)
		}
	case "checkout":
		if o.checkouts == "" {
			return nil, fmt.Errorf("no checkouts directory (-checkouts)")
		}
		dir := filepath.Join(o.checkouts, sp.id)
		ents, err := os.ReadDir(dir)
		if err != nil || len(ents) == 0 {
			return nil, fmt.Errorf("no checkout of %s under %s", sp.id, o.checkouts)
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			// A checkout may be a link to a tree kept elsewhere.
			if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && st.IsDir() {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("no checkout of %s under %s: no directory in %s", sp.id, o.checkouts, dir)
		}
		sort.Strings(names)
		s.commit = names[0]
		s.root = filepath.Join(o.work, "trees", sp.name)
		logf("%s: copying %s", sp.name, filepath.Join(sp.id, s.commit))
		if err := copyTree(filepath.Join(dir, s.commit), s.root); err != nil {
			return nil, err
		}
	case "repo":
		if o.repos == "" {
			return nil, fmt.Errorf("no repositories directory (-repos)")
		}
		gitDir := filepath.Join(o.repos, sp.id, "repo")
		if _, err := os.Stat(gitDir); err != nil {
			return nil, fmt.Errorf("no repository %s under %s", sp.id, o.repos)
		}
		s.root = filepath.Join(o.work, "trees", sp.name)
		logf("%s: checking out", sp.name)
		if out, err := exec.CommandContext(ctx, "git", "clone", "--quiet", "--shared", gitDir, s.root).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git clone: %v: %s", err, out)
		}
		out, err := exec.CommandContext(ctx, "git", "-C", s.root, "rev-parse", "HEAD").Output()
		if err != nil {
			return nil, err
		}
		s.commit = strings.TrimSpace(string(out))
	}
	if len(s.commit) > 12 && sp.where != "goroot" {
		s.commit = s.commit[:12]
	}
	if sp.lang == "go" && sp.where != "goroot" {
		downloadModules(ctx, s.root)
	}
	if err := s.scan(); err != nil {
		return nil, err
	}
	return s, nil
}

// downloadModules fetches a Go tree's module dependencies into the module
// cache before anything is measured, as a developer working on the tree
// has them: without them ctxexpand and gopls both meet missing packages
// (hugo lost its logging library's types, and with them most of
// hugolib's), and what is measured is no longer the ordinary case. The
// download is not timed; where the proxy cannot be reached the run goes
// on with what the cache holds, and says so.
func downloadModules(ctx context.Context, root string) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		logf("%s: go mod download failed, measuring with the modules the cache holds: %v: %s", root, err, strings.TrimSpace(string(out)))
	}
}

// copyTree copies a working tree without its .git directory.
func copyTree(src, dst string) error {
	if real, err := filepath.EvalSymlinks(src); err == nil {
		src = real // a checkout linked from elsewhere is copied, not the link
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil
	})
}

// skipDir are directories whose files are not candidates for edits.
var skipDir = map[string]bool{".git": true, "vendor": true, "testdata": true, "target": true, "node_modules": true,
	"examples": true, "example": true, "tests": true, "benches": true}

// scan counts the source files and lines, picks edit candidates and the
// gopls target.
func (s *subject) scan() error {
	ext := ".go"
	if s.lang == "rust" {
		ext = ".rs"
	}
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != s.root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || filepath.Ext(p) != ext {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		s.files++
		s.lines += bytes.Count(data, []byte{'\n'})
		rel, _ := filepath.Rel(s.root, p)
		rel = filepath.ToSlash(rel)
		for _, part := range strings.Split(filepath.Dir(rel), "/") {
			if skipDir[part] {
				return nil
			}
		}
		if strings.HasSuffix(rel, "_test.go") || bytes.Contains(data[:min(len(data), 1024)], []byte("DO NOT EDIT")) {
			return nil
		}
		s.sources = append(s.sources, rel)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(s.sources)
	if len(s.sources) < 5 {
		return fmt.Errorf("only %d source files", len(s.sources))
	}
	if s.lang == "go" {
		s.goplsPos = goplsTarget(s.root, s.sources)
	}
	return nil
}

// goplsTarget finds the first exported top-level function of the first
// source file that has one, as FILE:#OFFSET of its name.
func goplsTarget(root string, sources []string) string {
	for _, rel := range sources {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		off := 0
		for sc.Scan() {
			line := sc.Text()
			if name, ok := strings.CutPrefix(line, "func "); ok && len(name) > 0 && name[0] >= 'A' && name[0] <= 'Z' {
				return fmt.Sprintf("%s:#%d", filepath.Join(root, filepath.FromSlash(rel)), off+len("func "))
			}
			off += len(line) + 1
		}
	}
	return ""
}

// editTargets picks five source files for round r, spread over the tree.
func (s *subject) editTargets(r int) []string {
	n := len(s.sources)
	var out []string
	for k := 0; k < 5; k++ {
		out = append(out, s.sources[(n*(2*k+1)/10+r*7)%n])
	}
	return out
}
