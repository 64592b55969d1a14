package expand

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/graph"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
)

// Seed strengths by source. Named things outrank found things.
const (
	strengthExplicit = 1.0
	strengthFrame    = 1.0
	strengthPath     = 0.9
	strengthDirFile  = 0.45
	strengthTestedBy = 0.9 // of a named test file's strength, for the file it tests
	strengthArea     = 0.35
	strengthEntry    = 0.8
	maxEntityMatches = 12
	maxFrames        = 12
	maxDirFiles      = 60
)

// seedBuilder collects seeds and their evidence for one expansion.
type seedBuilder struct {
	e   *Engine
	lex *rank.Lexical

	named         []graph.Seed
	evidence      []rank.Evidence
	seeds         []Seed
	explicitSpans map[analyze.FileID][]Span
	// testsWanted: the task is about tests, so test code may seed.
	testsWanted bool
	// bySource holds, per file, the strongest seed of each source (the
	// seed features of the learned ranker, features.go).
	bySource map[analyze.FileID]*[numFeatures]float64
}

// note records a seed of the given source in file f for the features.
func (sb *seedBuilder) note(f analyze.FileID, source string, score float64) {
	j, ok := seedFeature[source]
	if !ok {
		return
	}
	if sb.bySource == nil {
		sb.bySource = map[analyze.FileID]*[numFeatures]float64{}
	}
	x := sb.bySource[f]
	if x == nil {
		x = &[numFeatures]float64{}
		sb.bySource[f] = x
	}
	x[j] = max(x[j], score)
}

func (sb *seedBuilder) symSeed(s analyze.SymID, score float64, kind rank.EvidenceKind, source, why string) {
	sb.symSeedOrder(s, score, kind, source, why, pinnedOrder)
}

// pinnedOrder places @Symbol references after the @file and @grep
// references, whose positions come from the list expansion is given.
const pinnedOrder = 1 << 20

func (sb *seedBuilder) symSeedOrder(s analyze.SymID, score float64, kind rank.EvidenceKind, source, why string, order int) {
	sym := &sb.e.Facts.Symbols[s]
	sb.note(sym.File, source, score)
	sb.named = append(sb.named, graph.Seed{Node: sb.e.Graph.SymNode(s), Score: score})
	sb.evidence = append(sb.evidence, rank.Evidence{File: sym.File, Sym: s, Kind: kind, Score: score, Reason: why, Order: order})
	sb.seeds = append(sb.seeds, Seed{Label: sb.e.Graph.Label(sb.e.Graph.SymNode(s)), Path: sb.e.Facts.Files[sym.File].Path, Line: sym.DeclLine, Score: score, Source: source})
}

func (sb *seedBuilder) fileSeed(f analyze.FileID, score float64, kind rank.EvidenceKind, source, why string, walk bool) {
	sb.fileSeedOrder(f, score, kind, source, why, walk, pinnedOrder)
}

func (sb *seedBuilder) fileSeedOrder(f analyze.FileID, score float64, kind rank.EvidenceKind, source, why string, walk bool, order int) {
	sb.note(f, source, score)
	if walk {
		sb.named = append(sb.named, graph.Seed{Node: sb.e.Graph.FileNode(f), Score: score})
	}
	sb.evidence = append(sb.evidence, rank.Evidence{File: f, Sym: analyze.NoSym, Kind: kind, Score: score, Reason: why, Order: order})
	sb.seeds = append(sb.seeds, Seed{Label: sb.e.Facts.Files[f].Path, Path: sb.e.Facts.Files[f].Path, Score: score, Source: source})
}

// entities resolves the symbols the query names.
func (sb *seedBuilder) entities(plan *query.Plan, res *Result) {
	pinned := map[string]bool{}
	for _, r := range plan.Refs {
		if r.Kind == query.RefSymbol {
			pinned[r.Value] = true
		}
	}
	for _, ent := range plan.Entities {
		switch ent.Kind {
		case query.EntityPath:
			sb.pathSeed(ent.Raw, strengthPath, "named in the query")
			continue
		case query.EntitySymbol:
		default:
			// Code that is not a symbol: its identifiers are terms, and
			// those that look like symbols are entities of their own.
			continue
		}
		r := sb.e.Names.Resolve(ent)
		if ent.Bare {
			// A plain word stands for a symbol only where one is declared
			// with exactly its spelling; otherwise it is a word, and says
			// nothing about names.
			if r = exactDeclarations(sb.e.Facts, r); len(r.Matches) == 0 {
				continue
			}
		}
		res.Resolutions = append(res.Resolutions, r)
		if len(r.Matches) == 0 {
			res.Warnings = append(res.Warnings, r.Describe(sb.e.Facts))
			continue
		}
		// Only an @Symbol reference pins its symbols first in the bundle;
		// a back-ticked name is a seed like any named one.
		kind := rank.EvSeed
		// A name a long report mentions in passing seeds less than its
		// title's: its salience scales its seeds (and so what the walk
		// reaches from them).
		scale := ent.Weight()
		if pinned[ent.Raw] {
			kind, scale = rank.EvExplicit, 1
		}
		for i, m := range r.Matches {
			if i == maxEntityMatches {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s matches %d symbols; the first %d were used", ent.Raw, len(r.Matches), maxEntityMatches))
				break
			}
			label := sb.e.Graph.Label(sb.e.Graph.SymNode(m.Sym))
			sb.symSeed(m.Sym, m.Strength*scale, kind, "entity", fmt.Sprintf("seed %s (%s match for %s)", label, m.How, ent.Raw))
		}
		if len(r.Matches) > 1 {
			res.Warnings = append(res.Warnings, r.Describe(sb.e.Facts))
		}
	}
}

// frames seeds the symbols at the lines of a pasted stack trace, the
// innermost frame in the repository strongest: the runtime's and the
// dependencies' frames above it (a mutex's, a test runner's) seed nothing
// and do not count.
func (sb *seedBuilder) frames(plan *query.Plan) {
	n := 0 // frames that found their place in the repository
	for i, fr := range plan.Frames {
		if i == maxFrames {
			break
		}
		score := strengthFrame * pow(0.85, n)
		seeded := len(sb.seeds)
		sb.frame(fr, score)
		if len(sb.seeds) > seeded {
			n++
		}
	}
}

// frame seeds one frame: the symbol at its line, or its file, or the
// symbols its function's name resolves to.
func (sb *seedBuilder) frame(fr query.Frame, score float64) {
	if fid, ok := sb.findFile(fr.Path); ok && fr.Line > 0 {
		if s, ok := sb.symbolAt(fid, fr.Line); ok {
			sb.symSeed(s, score, rank.EvSeed, "frame", fmt.Sprintf("seed %s (stack frame %s:%d)", sb.e.Graph.Label(sb.e.Graph.SymNode(s)), sb.e.Facts.Files[fid].Path, fr.Line))
		} else {
			sb.fileSeed(fid, score, rank.EvSeed, "frame", fmt.Sprintf("stack frame %s:%d", sb.e.Facts.Files[fid].Path, fr.Line), true)
		}
		return
	}
	if fr.Func == "" || fr.External {
		// A runtime or dependency frame that is not a file of the
		// repository: its name would only find namesakes.
		return
	}
	r := sb.e.Names.Resolve(frameEntity(fr.Func))
	for j, m := range r.Matches {
		if j == 3 {
			break
		}
		sb.symSeed(m.Sym, score*m.Strength, rank.EvSeed, "frame", fmt.Sprintf("seed %s (stack frame %s)", sb.e.Graph.Label(sb.e.Graph.SymNode(m.Sym)), fr.Func))
	}
}

// frameEntity turns a printed function name into an entity:
// "main.(*UserService).FindByEmail" → [UserService FindByEmail],
// "app::store::Store::orders_of" → [Store orders_of].
func frameEntity(fn string) query.Entity {
	fn = strings.TrimSuffix(fn, "(...)")
	if i := strings.Index(fn, "{{closure}}"); i >= 0 {
		fn = strings.TrimSuffix(fn[:i], "::")
	}
	var parts []string
	if strings.Contains(fn, "::") {
		parts = strings.Split(fn, "::")
	} else {
		if i := strings.LastIndex(fn, "/"); i >= 0 {
			fn = fn[i+1:]
		}
		for _, p := range strings.Split(fn, ".") {
			p = strings.Trim(p, "(*)")
			if p != "" && !strings.HasPrefix(p, "func") {
				parts = append(parts, p)
			}
		}
	}
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return query.Entity{Raw: fn, Kind: query.EntitySymbol, Parts: parts}
}

// paths seeds the files and directories the query mentions.
func (sb *seedBuilder) paths(plan *query.Plan) {
	for _, p := range plan.Paths {
		sb.pathSeed(p, strengthPath, "named in the query")
	}
}

func (sb *seedBuilder) pathSeed(p string, score float64, why string) {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	if fid, ok := sb.findFile(p); ok {
		sb.fileSeed(fid, score, rank.EvSeed, "path", fmt.Sprintf("%s (%s)", sb.e.Facts.Files[fid].Path, why), true)
		// A Go test file named in a report (a failing test's output)
		// points at the code it tests: x_test.go at x.go.
		if tp := sb.e.Facts.Files[fid].Path; strings.HasSuffix(tp, "_test.go") {
			if sib, ok := sb.e.Facts.FileByPath(strings.TrimSuffix(tp, "_test.go") + ".go"); ok {
				sb.fileSeed(sib, score*strengthTestedBy, rank.EvSeed, "path", fmt.Sprintf("%s (tested by %s, %s)", sb.e.Facts.Files[sib].Path, path.Base(tp), why), true)
			}
		}
		return
	}
	files := sb.filesInDir(p)
	if len(files) > maxDirFiles {
		files = files[:maxDirFiles]
	}
	for _, fid := range files {
		sb.fileSeed(fid, strengthDirFile, rank.EvSeed, "path", fmt.Sprintf("in %s/ (%s)", strings.TrimSuffix(p, "/"), why), false)
	}
}

// areas seeds, weakly, the files of the directories an area prefix names
// ("tsdb/wlog:", "xdsclient:", "nu-command:"), so that lexical evidence
// decides among them.
func (sb *seedBuilder) areas(plan *query.Plan) {
	for _, a := range plan.Areas {
		files := sb.filesInDir(a)
		if len(files) == 0 {
			continue
		}
		score := strengthArea
		if len(files) > maxDirFiles {
			score *= float64(maxDirFiles) / float64(len(files))
		}
		for _, fid := range files {
			sb.note(fid, "area", score)
			sb.evidence = append(sb.evidence, rank.Evidence{File: fid, Sym: analyze.NoSym, Kind: rank.EvSeed, Score: score, Reason: fmt.Sprintf("in area %s", a)})
		}
		sb.seeds = append(sb.seeds, Seed{Label: a + " (area, " + fmt.Sprint(len(files)) + " files)", Score: score, Source: "area"})
	}
}

// explicit seeds the places @references resolved to.
func (sb *seedBuilder) explicit(refs []Explicit) {
	sb.explicitSpans = map[analyze.FileID][]Span{}
	for order, r := range refs {
		fid, ok := sb.e.Facts.FileByPath(r.Path)
		if !ok {
			continue
		}
		if r.StartLine <= 0 {
			sb.fileSeedOrder(fid, strengthExplicit, rank.EvExplicit, "explicit", r.Reason, true, order)
			continue
		}
		end := r.EndLine
		if end < r.StartLine {
			end = r.StartLine
		}
		sb.explicitSpans[fid] = append(sb.explicitSpans[fid], Span{Start: r.StartLine, End: end, Symbol: r.Reason})
		sb.fileSeedOrder(fid, strengthExplicit, rank.EvExplicit, "explicit", r.Reason, false, order)
		for _, s := range sb.e.Facts.SymbolsIn(fid) {
			sym := &sb.e.Facts.Symbols[s]
			if sym.Start <= end && sym.End >= r.StartLine && sym.Kind != analyze.KindImpl && sym.Kind != analyze.KindModule {
				sb.symSeedOrder(s, strengthExplicit, rank.EvExplicit, "explicit", fmt.Sprintf("%s (in %s)", r.Reason, sb.e.Graph.Label(sb.e.Graph.SymNode(s))), order)
			}
		}
	}
}

// walkSeeds are the named seeds plus, for the strategy, entry points and
// the best lexical matches.
func (sb *seedBuilder) walkSeeds(st Strategy) []graph.Seed {
	seeds := append([]graph.Seed(nil), sb.named...)
	if st.EntryPoints {
		for _, s := range sb.entryPoints() {
			seeds = append(seeds, graph.Seed{Node: sb.e.Graph.SymNode(s), Score: strengthEntry})
			sym := &sb.e.Facts.Symbols[s]
			sb.note(sym.File, "entrypoint", strengthEntry)
			sb.evidence = append(sb.evidence, rank.Evidence{File: sym.File, Sym: s, Kind: rank.EvSeed, Score: strengthEntry * 0.6, Reason: "entry point " + sb.e.Graph.Label(sb.e.Graph.SymNode(s))})
			sb.seeds = append(sb.seeds, Seed{Label: sb.e.Graph.Label(sb.e.Graph.SymNode(s)), Path: sb.e.Facts.Files[sym.File].Path, Line: sym.DeclLine, Score: strengthEntry, Source: "entrypoint"})
		}
	}
	if st.LexicalSeeds > 0 {
		// Test and example files match a query's words as well as the
		// code they exercise, but walking from them reaches everything
		// they call: they do not seed unless the task is about tests.
		// (Unit tests inside a source file stay: they point at it.)
		keep := func(s analyze.SymID) bool {
			sym := &sb.e.Facts.Symbols[s]
			if sb.testsWanted {
				return true
			}
			cat := sb.e.Facts.Files[sym.File].Category
			return cat != analyze.CatTest && cat != analyze.CatExample
		}
		for _, ls := range topSymbols(sb.lex.Sym, st.LexicalSeeds, keep) {
			seeds = append(seeds, graph.Seed{Node: sb.e.Graph.SymNode(ls.sym), Score: st.LexicalSeedScale * ls.norm})
			sym := &sb.e.Facts.Symbols[ls.sym]
			sb.note(sym.File, "lexical", st.LexicalSeedScale*ls.norm)
			sb.seeds = append(sb.seeds, Seed{Label: sb.e.Graph.Label(sb.e.Graph.SymNode(ls.sym)), Path: sb.e.Facts.Files[sym.File].Path, Line: sym.DeclLine, Score: st.LexicalSeedScale * ls.norm, Source: "lexical"})
		}
	}
	return seeds
}

// entryPoints are the main functions of Go main packages and Rust binaries.
func (sb *seedBuilder) entryPoints() []analyze.SymID {
	var out []analyze.SymID
	for i := range sb.e.Facts.Symbols {
		s := &sb.e.Facts.Symbols[i]
		if s.Kind != analyze.KindFunc || s.Name != "main" {
			continue
		}
		f := &sb.e.Facts.Files[s.File]
		if f.Category == analyze.CatTest || f.Category == analyze.CatExample {
			continue
		}
		switch f.Lang {
		case analyze.LangGo:
			if f.PkgName == "main" {
				out = append(out, analyze.SymID(i))
			}
		case analyze.LangRust:
			if path.Base(f.Path) == "main.rs" || strings.Contains(f.Path, "/bin/") {
				out = append(out, analyze.SymID(i))
			}
		}
	}
	return out
}

type symScore struct {
	sym  analyze.SymID
	norm float64
}

// topSymbols returns the k best-scoring symbols with their score divided
// by the best.
func topSymbols(scores []float64, k int, keep func(analyze.SymID) bool) []symScore {
	var all []symScore
	var best float64
	for i, v := range scores {
		if v > 0 && keep(analyze.SymID(i)) {
			all = append(all, symScore{analyze.SymID(i), v})
			best = max(best, v)
		}
	}
	slices.SortFunc(all, func(a, b symScore) int { // a total order: symbols are unique
		return cmp.Or(cmp.Compare(b.norm, a.norm), cmp.Compare(a.sym, b.sym))
	})
	if len(all) > k {
		all = all[:k]
	}
	for i := range all {
		all[i].norm /= best
	}
	return all
}

// findFile finds the repository file a path written by a person or a
// stack trace means: exact, then the longest repository path that is a
// suffix of it (absolute paths from another machine), then a unique file
// whose path ends with it.
func (sb *seedBuilder) findFile(p string) (analyze.FileID, bool) {
	p = strings.TrimPrefix(p, "./")
	if fid, ok := sb.e.Facts.FileByPath(p); ok {
		return fid, true
	}
	best, bestLen := analyze.FileID(-1), 0
	var suffixOf []analyze.FileID
	for i, f := range sb.e.Facts.Files {
		if strings.HasSuffix(p, "/"+f.Path) && len(f.Path) > bestLen {
			best, bestLen = analyze.FileID(i), len(f.Path)
		}
		if strings.HasSuffix(f.Path, "/"+p) {
			suffixOf = append(suffixOf, analyze.FileID(i))
		}
	}
	if best >= 0 {
		return best, true
	}
	if len(suffixOf) == 1 {
		return suffixOf[0], true
	}
	return 0, false
}

// filesInDir lists the files under a directory whose path is, or ends
// with, dir, component-wise ("-" and "_" are the same, as in crate names),
// and the files of a Rust crate of that name.
func (sb *seedBuilder) filesInDir(dir string) []analyze.FileID {
	dir = strings.Trim(dir, "/")
	if dir == "" {
		return nil
	}
	want := normDir(dir)
	var out []analyze.FileID
	for i, f := range sb.e.Facts.Files {
		if d := normDir(path.Dir(f.Path)); strings.Contains("/"+d+"/", "/"+want+"/") {
			out = append(out, analyze.FileID(i))
			continue
		}
		// A crate named by the area: files of a package whose name matches.
		if f.Lang == analyze.LangRust && analyze.NormName(f.PkgName) == analyze.NormName(dir) {
			out = append(out, analyze.FileID(i))
		}
	}
	return out
}

func normDir(d string) string { return strings.ReplaceAll(strings.ToLower(d), "-", "_") }

// symbolAt is the innermost symbol of file f covering line.
func (sb *seedBuilder) symbolAt(f analyze.FileID, line int) (analyze.SymID, bool) {
	best, bestLen := analyze.NoSym, 0
	for _, s := range sb.e.Facts.SymbolsIn(f) {
		sym := &sb.e.Facts.Symbols[s]
		if sym.Start <= line && line <= sym.End && sym.Kind != analyze.KindImpl && sym.Kind != analyze.KindModule {
			if l := sym.End - sym.Start; best == analyze.NoSym || l < bestLen {
				best, bestLen = s, l
			}
		}
	}
	return best, best != analyze.NoSym
}

// report lists the seeds for --explain, strongest first, once each.
func (sb *seedBuilder) report() []Seed {
	out := append([]Seed(nil), sb.seeds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Label != out[j].Label {
			return out[i].Label < out[j].Label
		}
		return out[i].Source < out[j].Source
	})
	seen := map[string]bool{}
	res := out[:0]
	for _, s := range out {
		k := s.Label + "\x00" + s.Source
		if seen[k] {
			continue
		}
		seen[k] = true
		res = append(res, s)
	}
	return res
}

func pow(x float64, n int) float64 {
	r := 1.0
	for i := 0; i < n; i++ {
		r *= x
	}
	return r
}

// exactDeclarations keeps the matches of a resolution that are spelled
// exactly as the name and declare a type, a trait, a function, a method,
// a module, a macro or a constant (not a field, a variable or a variant,
// whose names are common words).
func exactDeclarations(facts *analyze.Facts, r rank.Resolution) rank.Resolution {
	var keep []rank.Match
	for _, m := range r.Matches {
		if m.How != rank.MatchExact {
			continue
		}
		switch k := facts.Symbols[m.Sym].Kind; {
		case k.IsType(), k.IsCallable(), k == analyze.KindModule, k == analyze.KindMacro, k == analyze.KindConst, k == analyze.KindStatic:
			keep = append(keep, m)
		}
	}
	r.Matches, r.Suggestions = keep, nil
	return r
}
