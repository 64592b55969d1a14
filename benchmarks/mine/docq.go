package main

// Pseudo-questions (-shape doc): training data for "how does X work"
// queries without hand labels. A documented declaration's first doc
// sentence, with the declared name taken out so that it cannot be found by
// name, becomes a question whose answer is the file that declares it; a Go
// package comment becomes one whose answer is the file that holds it.
//
// The question is asked of a tree without the comments it was made from:
// left in, the answer file would hold the question word for word, and a
// model trained on that learns to trust plain text search (on the first
// set mined, BM25 put the answer first for 0.83 of the questions and the
// hand weights for 0.68, while on hand-written questions BM25 does worst;
// the model trained there was no better than the hand weights on them).
// So each repository gets one more commit, on top of the mined head and
// made in its git directory, whose only change is that the doc comments
// of the chosen declarations are blank lines (blankDocs); its instances
// are asked at that commit.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
	"github.com/ctxexpand/ctxexpand/eval"
	"github.com/ctxexpand/ctxexpand/internal/goast"
)

// docDecl is one documented declaration: where it is, its name, what kind
// of thing it is and its doc comment.
type docDecl struct {
	Path string
	Name string // the declared name; a package's name for a package comment
	Kind string // "func", "type" or "package"
	Doc  string
	// DocLines are the first and last lines (1-based) of the doc comment.
	DocLines [2]int
}

// mineDocs makes pseudo-questions from the documented declarations of
// the tree at spec's head: at most opt.MaxPerRepo, one per file, chosen
// by the SHA-256 of their ids, in path order.
func mineDocs(ctx context.Context, gitDir string, spec repoSpec, opt options) (repoResult, error) {
	res, tmp, err := exportHead(ctx, gitDir, spec, exported)
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	var decls []docDecl
	var nSource int
	switch spec.Lang {
	case eval.LangGo:
		decls, nSource, err = goDocs(ctx, tmp)
	case eval.LangRust:
		decls, nSource, err = rustDocs(ctx, tmp)
	}
	if err != nil {
		return res, err
	}
	res.Walked = len(decls)
	type cand struct {
		inst eval.Instance
		key  string
		decl docDecl
	}
	var cands []cand
	seen := map[string]int{} // normalised sentence → how many declarations give it
	qs, keys := make([]string, len(decls)), make([]string, len(decls))
	for i, d := range decls {
		q, why := docQuestion(d.Doc, d.Name, d.Kind, spec.Repo+"\x00"+d.Path+"\x00"+d.Name)
		if why != "" {
			res.Rejects[why]++
			continue
		}
		qs[i], keys[i] = q, sentenceKey(q)
		seen[keys[i]]++
	}
	for i, d := range decls {
		if qs[i] == "" {
			continue
		}
		if seen[keys[i]] > 1 {
			res.Rejects["same sentence elsewhere"]++
			continue
		}
		sum := sha256.Sum256([]byte(spec.Repo + "\x00" + d.Path + "\x00" + d.Kind + "\x00" + d.Name))
		key := hex.EncodeToString(sum[:])
		cands = append(cands, cand{key: key, decl: d, inst: eval.Instance{
			ID: spec.Repo + "@doc-" + key[:10], Repo: spec.Repo, Lang: spec.Lang,
			Commit: res.Head, Base: res.Head, Query: qs[i],
			GoldFiles: []string{d.Path}, TestFiles: []string{}, Kind: "question",
			NSourceFilesAtBase: nSource, Subject: d.Kind + " " + d.Name,
		}})
	}
	res.Eligible = len(cands)
	slices.SortFunc(cands, func(a, b cand) int { return strings.Compare(a.key, b.key) })
	files := map[string]bool{}
	var chosen []docDecl
	for _, c := range cands {
		if opt.MaxPerRepo > 0 && len(res.Instances) >= opt.MaxPerRepo {
			break
		}
		if files[c.inst.GoldFiles[0]] {
			continue
		}
		files[c.inst.GoldFiles[0]] = true
		res.Instances = append(res.Instances, c.inst)
		chosen = append(chosen, c.decl)
	}
	if len(chosen) > 0 {
		asked, err := blankDocs(ctx, gitDir, res.Head, tmp, chosen)
		if err != nil {
			return res, err
		}
		for i := range res.Instances {
			res.Instances[i].Commit, res.Instances[i].Base = asked, asked
		}
	}
	slices.SortFunc(res.Instances, func(a, b eval.Instance) int {
		return strings.Compare(a.GoldFiles[0]+"\x00"+a.ID, b.GoldFiles[0]+"\x00"+b.ID)
	})
	return res, nil
}

// exportHead resolves spec's head in gitDir and writes the files of its
// tree that keep accepts into a new temporary directory, which the caller
// removes; the result it starts has the head.
func exportHead(ctx context.Context, gitDir string, spec repoSpec, keep func(string) bool) (repoResult, string, error) {
	res := repoResult{Spec: spec, Rejects: map[string]int{}}
	var err error
	if res.Head, err = specHead(ctx, gitDir, spec); err != nil {
		return res, "", err
	}
	tmp, err := os.MkdirTemp("", "mine-")
	if err != nil {
		return res, "", err
	}
	if err := exportTree(ctx, gitDir, res.Head, tmp, keep); err != nil {
		os.RemoveAll(tmp)
		return res, "", err
	}
	return res, tmp, nil
}

// exportTree writes the files of commit that keep accepts into dir.
// Blobs the git directory lacks (mirrors may leave the largest out) are
// skipped.
func exportTree(ctx context.Context, gitDir, commit, dir string, keep func(string) bool) error {
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "ls-tree", "-r", "-z", "--full-tree", commit).Output()
	if err != nil {
		return fmt.Errorf("listing the tree of %s in %s: %w", commit, gitDir, err)
	}
	var paths, ids []string
	for _, e := range strings.Split(string(out), "\x00") {
		meta, p, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || f[0] == "120000" || !keep(p) {
			continue
		}
		paths, ids = append(paths, p), append(ids, f[2])
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(stdout, 1<<16)
	var werr error
	for i := range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			werr = fmt.Errorf("reading %s: %w", paths[i], err)
			break
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			continue // "<id> missing"
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			werr = fmt.Errorf("git cat-file header %q", header)
			break
		}
		data := make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(r, data); err != nil {
			werr = fmt.Errorf("reading %s: %w", paths[i], err)
			break
		}
		dst := filepath.Join(dir, filepath.FromSlash(paths[i]))
		if !analyze.CleanRel(paths[i]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			werr = err
			break
		}
		if err := os.WriteFile(dst, data[:size], 0o644); err != nil {
			werr = err
			break
		}
	}
	if werr != nil {
		_ = cmd.Process.Kill()
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		return werr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file in %s: %w", gitDir, err)
	}
	return nil
}

// exported says whether a path is a Go or Rust source or a manifest that
// lays them out: what the doc miner exports.
func exported(p string) bool {
	switch path.Base(p) {
	case "go.mod", "Cargo.toml":
		return true
	}
	return strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".rs")
}

// askable says whether a file's declarations may become questions: an
// ordinary source file, not a test, example, vendored or generated one.
func askable(rel string, src []byte) bool {
	return analyze.Classify(rel) == analyze.CatSource && !analyze.IsGeneratedContent(src)
}

// goDocs lists the documented exported functions, methods and types of
// the Go source files under root, and package comments in files that
// declare something besides, with the number of source files.
func goDocs(ctx context.Context, root string) ([]docDecl, int, error) {
	var decls []docDecl
	n, err := eachGoSource(ctx, root, parser.ParseComments, func(rel string, fset *token.FileSet, f *ast.File) {
		declared := 0
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				declared++
				if !d.Name.IsExported() || d.Doc == nil || (d.Recv != nil && !exportedRecv(d.Recv)) {
					continue
				}
				decls = append(decls, docDecl{Path: rel, Name: d.Name.Name, Kind: "func", Doc: d.Doc.Text(), DocLines: lines(fset, d.Doc)})
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					declared++
					doc := ts.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					if !ts.Name.IsExported() || doc == nil {
						continue
					}
					decls = append(decls, docDecl{Path: rel, Name: ts.Name.Name, Kind: "type", Doc: doc.Text(), DocLines: lines(fset, doc)})
				}
			}
		}
		if f.Doc != nil && declared > 0 {
			decls = append(decls, docDecl{Path: rel, Name: f.Name.Name, Kind: "package", Doc: f.Doc.Text(), DocLines: lines(fset, f.Doc)})
		}
	})
	return decls, n, err
}

// eachGoSource parses, with mode, each askable Go source file under root
// and calls fn with it; it returns how many there are, those that fail to
// parse included.
func eachGoSource(ctx context.Context, root string, mode parser.Mode, fn func(rel string, fset *token.FileSet, f *ast.File)) (int, error) {
	files, _, err := analyze.ListFiles(ctx, root, analyze.WalkOptions{})
	if err != nil {
		return 0, err
	}
	n := 0
	fset := token.NewFileSet()
	for _, rel := range files {
		if analyze.LangOf(rel) != analyze.LangGo {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !askable(rel, src) {
			continue
		}
		n++
		if f, err := parser.ParseFile(fset, rel, src, mode|parser.SkipObjectResolution); err == nil {
			fn(rel, fset, f)
		}
	}
	return n, nil
}

// lines are the first and last lines of a comment group.
func lines(fset *token.FileSet, g *ast.CommentGroup) [2]int {
	return [2]int{fset.Position(g.Pos()).Line, fset.Position(g.End()).Line}
}

// exportedRecv says whether a method's receiver type is exported.
func exportedRecv(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	id, ok := goast.BaseType(fl.List[0].Type).(*ast.Ident)
	return ok && id.IsExported()
}

// rustDocs lists the documented public functions, methods and types of
// the Rust source files under root (the analyser's own reading, tests
// left out), with the number of source files. The analyser's category
// already tells generated files from ordinary source (askable's rule).
func rustDocs(ctx context.Context, root string) ([]docDecl, int, error) {
	facts, askFile, n, err := rustSources(ctx, root)
	if err != nil {
		return nil, 0, err
	}
	var decls []docDecl
	for _, s := range facts.Symbols {
		if !s.Exported || s.Test || s.Doc == "" || int(s.File) >= len(askFile) || !askFile[s.File] {
			continue
		}
		kind := ""
		switch {
		case s.Kind.IsCallable():
			kind = "func"
		case s.Kind.IsType():
			kind = "type"
		default:
			continue
		}
		// The symbol starts at its doc comment; attributes may stand
		// between the two, and blankDocs keeps them.
		decls = append(decls, docDecl{Path: facts.Files[s.File].Path, Name: s.Name, Kind: kind, Doc: s.Doc, DocLines: [2]int{s.Start, s.DeclLine - 1}})
	}
	slices.SortStableFunc(decls, func(a, b docDecl) int { return strings.Compare(a.Path, b.Path) })
	return decls, n, nil
}

// rustSources loads the Rust code under root (the analyser's own reading,
// tests left out) and says which of its files are ordinary source, which
// questions may be about, and how many.
func rustSources(ctx context.Context, root string) (facts *analyze.Facts, source []bool, n int, err error) {
	if facts, err = rust.Load(ctx, root, rust.Options{SkipTests: true}); err != nil {
		return nil, nil, 0, err
	}
	source = make([]bool, len(facts.Files))
	for i, f := range facts.Files {
		if source[i] = f.Category == analyze.CatSource; source[i] {
			n++
		}
	}
	return facts, source, n, nil
}

// blankDocs makes, in gitDir, the commit that the questions about decls
// are asked at: head's tree with the doc comment of every declaration in
// decls turned into blank lines (the line count stays, so every other
// line keeps its number), the files read from root, head's export. The
// commit has fixed authorship and dates, so the same decls give the same
// commit id.
func blankDocs(ctx context.Context, gitDir, head, root string, decls []docDecl) (string, error) {
	byFile := map[string][][2]int{}
	for _, d := range decls {
		byFile[d.Path] = append(byFile[d.Path], d.DocLines)
	}
	paths := slices.Sorted(maps.Keys(byFile))
	idx, err := os.CreateTemp("", "mine-index-")
	if err != nil {
		return "", err
	}
	idx.Close()
	defer os.Remove(idx.Name())
	git := func(stdin string, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + gitDir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+idx.Name(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=ctxexpand mine", "GIT_AUTHOR_EMAIL=mine@ctxexpand.invalid", "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z",
			"GIT_COMMITTER_NAME=ctxexpand mine", "GIT_COMMITTER_EMAIL=mine@ctxexpand.invalid", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z")
		cmd.Stdin = strings.NewReader(stdin)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s in %s: %w: %s", args[0], gitDir, err, strings.TrimSpace(stderr.String()))
		}
		return strings.TrimSpace(string(out)), nil
	}
	if _, err := git("", "read-tree", head); err != nil {
		return "", err
	}
	var info strings.Builder
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return "", err
		}
		blob, err := git(string(blankLines(src, byFile[p])), "hash-object", "-w", "--stdin")
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&info, "100644 %s\t%s\n", blob, p)
	}
	if _, err := git(info.String(), "update-index", "--index-info"); err != nil {
		return "", err
	}
	tree, err := git("", "write-tree")
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("ctxexpand mine: the doc comments of %d declarations asked about, blanked\n", len(decls))
	return git(msg, "commit-tree", tree, "-p", head)
}

// blankLines empties the lines of src in the given ranges (1-based,
// inclusive) that are comments, keeping their line breaks: a Rust
// symbol's range may hold attributes, which stay.
func blankLines(src []byte, ranges [][2]int) []byte {
	ls := strings.SplitAfter(string(src), "\n")
	for _, r := range ranges {
		for n := max(r[0], 1); n <= r[1] && n <= len(ls); n++ {
			l := ls[n-1]
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
				ls[n-1] = l[len(strings.TrimRight(l, "\r\n")):]
			}
		}
	}
	return []byte(strings.Join(ls, ""))
}
