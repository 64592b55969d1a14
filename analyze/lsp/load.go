package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// ErrNoServer means no language server is known for the language asked for.
var ErrNoServer = errors.New("no language server for this language")

// Load analyses the code of one language under root through a language
// server and returns the facts, every edge marked exact.
//
// Unlike the built-in loaders, Load fails when the server does: when it
// cannot be started, exits, stops answering or writes something that is
// not the protocol. The caller is expected to fall back to the built-in
// analysis then. Individual requests that fail or time out, and requests
// cut off by MaxRequests, become problems next to the facts. When ctx is
// done the facts gathered so far are returned with Partial set.
func Load(ctx context.Context, root string, opt Options) (*analyze.Facts, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", root, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("loading %s: %w", root, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("loading %s: not a directory; pass the repository's root directory", root)
	}
	l := &loader{
		ctx:     ctx,
		root:    abs,
		opt:     &opt,
		facts:   &analyze.Facts{Root: abs},
		byURI:   make(map[string]analyze.FileID),
		byPath:  make(map[string]analyze.FileID),
		modules: make(map[string]string),
	}
	if l.realRoot, err = filepath.EvalSymlinks(abs); err != nil {
		l.realRoot = abs
	}
	start := time.Now()
	paths, err := l.list()
	if err != nil {
		return nil, err
	}
	argv := opt.Command
	if len(argv) == 0 {
		argv = DefaultCommand(l.lang)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("loading %s: %w (%s); pass --lsp-cmd", root, ErrNoServer, l.lang)
	}
	l.readFiles(paths)
	if len(l.files) == 0 {
		l.facts.Problemf(analyze.ProblemSkipped, "", 0, "no %s source files to analyse", l.lang)
		l.facts.Normalize()
		return l.facts, nil
	}
	opt.logf("lsp: %d %s files read in %v", len(l.files), l.lang, since(start))

	t := time.Now()
	srv, err := startServer(ctx, startConfig{
		argv:     argv,
		root:     abs,
		folders:  l.folders(),
		env:      opt.serverEnv(l.lang),
		settings: serverSettings(l.lang),
		timeout:  opt.startTimeout(),
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("starting %s: %w", filepath.Base(argv[0]), ctx.Err())
		}
		return nil, err
	}
	defer srv.close()
	l.srv = srv
	l.req = newRequester(srv, &opt)
	if l.lang == analyze.LangRust {
		if !srv.waitQuiescent(ctx, opt.startTimeout()) && srv.conn.Err() == nil && ctx.Err() == nil {
			l.facts.Problemf(analyze.ProblemDegraded, "", 0, "%s did not report the end of indexing within %v; answers may be incomplete", srv.name, opt.startTimeout())
		}
	}
	opt.logf("lsp: %s started in %v", srv.name, since(t))

	if err := l.run(); err != nil {
		return nil, err
	}
	opt.logf("lsp: requests: %s", l.req.summary())
	if mem := peakMemory(srv.cmd.Process.Pid); mem != "" {
		opt.logf("lsp: %s peak memory %s", srv.name, mem)
	}
	opt.logf("lsp: %s; %d requests, total %v", l.facts.Summary(), l.req.sent.Load(), since(start))
	return l.facts, nil
}

// loader holds the state of one Load.
type loader struct {
	ctx   context.Context
	root  string // absolute
	lang  analyze.Lang
	opt   *Options
	facts *analyze.Facts

	files   []fileData // by FileID
	byURI   map[string]analyze.FileID
	byPath  map[string]analyze.FileID
	info    []symInfo         // by SymID
	modules map[string]string // directory → module path (Go) or crate name (Rust); "" for none

	srv *server
	req *requester

	realRoot string                          // root with symbolic links resolved
	implType map[analyze.SymID]analyze.SymID // Rust impl → its self type

	decls  map[declKey][]analyze.SymID // symbols by the line of their name
	byFile [][]analyze.SymID           // symbols of each file, by start line
	refs   []analyze.Edge              // references edges until addReferences

	badMu sync.Mutex
	bad   map[analyze.FileID]string // files whose requests failed → the first error
}

type declKey struct {
	file analyze.FileID
	line int // 1-based
}

// list decides the language and lists its files.
func (l *loader) list() ([]string, error) {
	l.lang = l.opt.Lang
	if l.lang == analyze.LangUnknown {
		l.lang = CommandLang(l.opt.Command)
	}
	langs := []analyze.Lang{l.lang}
	if l.lang == analyze.LangUnknown {
		langs = nil // both; pick the majority below
	}
	paths, probs, err := analyze.ListFiles(l.ctx, l.root, analyze.WalkOptions{
		Langs:       langs,
		MaxFileSize: l.opt.maxFileSize(),
		Ignore:      l.ignore,
	})
	if err != nil && len(paths) == 0 {
		return nil, fmt.Errorf("listing %s: %w", l.root, err)
	}
	l.facts.Problems = append(l.facts.Problems, probs...)
	if l.lang == analyze.LangUnknown {
		var goN, rsN int
		for _, p := range paths {
			switch analyze.LangOf(p) {
			case analyze.LangGo:
				goN++
			case analyze.LangRust:
				rsN++
			}
		}
		l.lang = analyze.LangGo
		if rsN > goN {
			l.lang = analyze.LangRust
		}
	}
	keep := paths[:0]
	for _, p := range paths {
		if analyze.LangOf(p) == l.lang {
			keep = append(keep, p)
		}
	}
	return keep, nil
}

// ignore combines the caller's Ignore with the directories the server
// leaves out of the workspace (Go: vendor, testdata, _ and . prefixes)
// and, with SkipTests, test files.
func (l *loader) ignore(rel string, isDir bool) bool {
	if l.opt.Ignore != nil && l.opt.Ignore(rel, isDir) {
		return true
	}
	name := path.Base(rel)
	if isDir {
		return l.lang == analyze.LangGo && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, "_"))
	}
	if !l.opt.SkipTests {
		return false
	}
	if l.lang == analyze.LangGo {
		return strings.HasSuffix(name, "_test.go") // as the built-in Go loader
	}
	return analyze.Classify(rel) == analyze.CatTest
}

// run asks the server for symbols, then edges, and finishes the facts.
//
// The edge requests go directory by directory (a Go package, a Rust
// module): the directory's files are opened in the server, as an editor
// would, its requests sent, and the files closed again. gopls keeps the
// packages of open files type-checked between requests; without that it
// type-checks a package again for nearly every request (a hundred-file
// repository takes minutes instead of seconds), and with every file open
// at once its memory grows with the whole repository.
func (l *loader) run() error {
	t := time.Now()
	if err := l.symbols(); err != nil {
		return err
	}
	l.index()
	l.opt.logf("lsp: %d symbols in %v", len(l.facts.Symbols), since(t))
	t = time.Now()
	before := len(l.facts.Edges)
	l.owners()
	l.opt.logf("lsp: owners: %d edges in %v", len(l.facts.Edges)-before, since(t))

	steps := []struct {
		name string
		fn   func(ids []analyze.SymID)
		took time.Duration
		n    int
	}{
		{name: "calls", fn: l.calls},
		{name: "implementations", fn: l.implementations},
		{name: "embeds", fn: l.embeds},
		{name: "references", fn: l.references},
	}
	for _, group := range l.groups() {
		if l.ctx.Err() != nil || l.req.Err() != nil {
			break
		}
		var ids []analyze.SymID
		for _, f := range group {
			ids = append(ids, l.byFile[f]...)
		}
		l.setOpen(group, true)
		for i := range steps {
			step := &steps[i]
			if l.ctx.Err() != nil || l.req.Err() != nil || step.name == "references" && l.opt.NoReferences {
				continue
			}
			t := time.Now()
			before, refs := len(l.facts.Edges), len(l.refs)
			step.fn(ids)
			step.took += time.Since(t)
			step.n += len(l.facts.Edges) - before + len(l.refs) - refs
		}
		l.setOpen(group, false)
	}
	for _, step := range steps {
		l.opt.logf("lsp: %s: %d edges in %v", step.name, step.n, step.took.Round(time.Millisecond))
	}
	if err := l.req.Err(); err != nil {
		return err
	}
	l.addReferences()
	l.testEdges()
	l.finish()
	return nil
}

// groups are the files by directory, in path order.
func (l *loader) groups() [][]analyze.FileID {
	var out [][]analyze.FileID
	last := ""
	for i := range l.facts.Files {
		dir := path.Dir(l.facts.Files[i].Path)
		if len(out) == 0 || dir != last {
			out = append(out, nil)
			last = dir
		}
		out[len(out)-1] = append(out[len(out)-1], analyze.FileID(i))
	}
	return out
}

// setOpen opens files in the server (didOpen, with their text) or closes
// them again (didClose). A failure means the connection is gone; the
// requests that follow report it.
func (l *loader) setOpen(files []analyze.FileID, open bool) {
	langID := map[analyze.Lang]string{analyze.LangGo: "go", analyze.LangRust: "rust"}[l.lang]
	for _, id := range files {
		f := &l.files[id]
		var err error
		if open {
			var src []byte
			src, err = os.ReadFile(f.abs)
			if err != nil {
				continue // the server reads it from disk, then
			}
			err = l.srv.conn.Notify("textDocument/didOpen", map[string]any{
				"textDocument": map[string]any{"uri": f.uri, "languageId": langID, "version": 1, "text": string(src)},
			})
		} else {
			err = l.srv.conn.Notify("textDocument/didClose", map[string]any{
				"textDocument": TextDocumentIdentifier{URI: f.uri},
			})
		}
		if err != nil {
			return
		}
	}
}

// symbols asks for every file's document symbols.
func (l *loader) symbols() error {
	answers := make([]json.RawMessage, len(l.files))
	errs := make([]error, len(l.files))
	l.req.each(l.ctx, len(l.files), func(i int) {
		params := map[string]any{"textDocument": TextDocumentIdentifier{URI: l.files[i].uri}}
		errs[i] = l.req.call(l.ctx, "textDocument/documentSymbol", params, &answers[i])
	})
	if err := l.req.Err(); err != nil {
		return err
	}
	ok, failed := 0, 0
	var firstErr error
	for i := range l.files {
		rel := l.facts.Files[i].Path
		if errs[i] != nil || answers[i] == nil {
			if errs[i] != nil && !errors.Is(errs[i], errBudget) && l.ctx.Err() == nil {
				failed++
				if firstErr == nil {
					firstErr = errs[i]
				}
				l.facts.Problemf(analyze.ProblemLoad, rel, 0, "no symbols: %v", errs[i])
			}
			continue
		}
		tree, err := decodeDocumentSymbols(answers[i])
		if err != nil {
			failed++
			if firstErr == nil {
				firstErr = fmt.Errorf("%w: %s: %v", ErrMalformed, rel, err)
			}
			l.facts.Problemf(analyze.ProblemLoad, rel, 0, "unreadable symbols: %v", err)
			continue
		}
		ok++
		l.addSymbols(analyze.FileID(i), tree)
	}
	if ok == 0 && failed > 0 {
		return fmt.Errorf("%s gave no symbols for any of %d files: %w", l.srv.name, failed, firstErr)
	}
	for i := range l.facts.Symbols {
		if l.lang == analyze.LangGo {
			fixGoHeader(&l.facts.Symbols[i])
		}
	}
	return nil
}

// folders are the workspace folders besides the root: every Go module
// found above a listed file. gopls loads only the module of each folder
// (or its go.work), and would treat the files of nested modules as loose
// files without them.
func (l *loader) folders() []string {
	var out []string
	for dir, mod := range l.modules {
		if l.lang == analyze.LangGo && mod != "" && dir != "." {
			out = append(out, filepath.Join(l.root, filepath.FromSlash(dir)))
		}
	}
	sort.Strings(out)
	return out
}

// failed records a request about symbol id that failed; the symbol's
// file will be marked degraded.
func (l *loader) failed(id analyze.SymID, method string, err error) {
	if !l.req.failed(method, err) {
		return
	}
	l.badMu.Lock()
	defer l.badMu.Unlock()
	if l.bad == nil {
		l.bad = make(map[analyze.FileID]string)
	}
	if f := l.facts.Symbols[id].File; l.bad[f] == "" {
		l.bad[f] = err.Error()
	}
}

// finish records what the limits cut off and puts the facts in order.
func (l *loader) finish() {
	if n := l.req.skipped.Load(); n > 0 {
		l.facts.Problemf(analyze.ProblemLimit, "", 0, "request cap of %d reached; %d requests not sent, so some edges are missing", l.opt.maxRequests(), n)
	}
	methods := make([]string, 0, len(l.req.failures))
	for m := range l.req.failures {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	for _, m := range methods {
		t := l.req.failures[m]
		l.facts.Problemf(analyze.ProblemLoad, "", 0, "%d %s requests failed (the first: %v); their edges are missing", t.n, m, t.first)
	}
	for f, msg := range l.bad {
		l.facts.Files[f].Degraded = true
		l.facts.Problemf(analyze.ProblemDegraded, l.facts.Files[f].Path, 0, "%s could not analyse the file (%s); its symbols have few or no edges", l.srv.name, msg)
	}
	if n := l.req.timeouts.Load(); n > 0 {
		l.facts.Problemf(analyze.ProblemLimit, "", 0, "%d requests to %s timed out after %v; their edges are missing", n, l.srv.name, l.opt.requestTimeout())
	}
	if err := l.ctx.Err(); err != nil {
		l.facts.Partial = true
		reason := "cancelled"
		if errors.Is(err, context.DeadlineExceeded) {
			reason = "time limit reached"
		}
		l.facts.Problemf(analyze.ProblemLimit, "", 0, "load stopped early (%s); the facts are partial", reason)
	}
	l.facts.Normalize()
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }
