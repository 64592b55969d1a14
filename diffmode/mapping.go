package diffmode

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// ChangeKind says what happened to a symbol.
type ChangeKind uint8

const (
	ChangeModified ChangeKind = iota
	ChangeAdded
	ChangeDeleted
	ChangeMoved   // deleted in one file and added under the same name in another
	ChangeRenamed // a file renamed or copied without changes inside symbols
)

var changeNames = [...]string{"modified", "added", "deleted", "moved", "renamed"}

func (k ChangeKind) String() string {
	if int(k) < len(changeNames) {
		return changeNames[k]
	}
	return fmt.Sprintf("change(%d)", k)
}

// Change is one changed symbol, or a changed range outside symbols
// (Symbol ""), or a file renamed as a whole.
type Change struct {
	Kind    ChangeKind
	Path    string // the file on the new side; for a deletion, the file at the base
	Symbol  string // qualified name: UserService.FindByEmail, Store::orders_of
	SymKind analyze.SymbolKind
	// Start and End are the span on the new side; for a deletion, at
	// the base.
	Start, End int
	// HeadPath and At locate a deletion on the new side: the file it was
	// removed from (when the file is still there) and the line that now
	// follows it.
	HeadPath string
	At       int
	// From is where a moved symbol or a renamed file was: "x.go:10-20".
	From string
	// Lines counts the added and removed lines within the span.
	Lines int
}

// String says what changed in words: "modified method
// UserService.FindByEmail (internal/service/user.go:33-48)".
func (c Change) String() string {
	loc := fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End)
	switch {
	case c.Kind == ChangeRenamed:
		return fmt.Sprintf("renamed %s → %s", c.From, c.Path)
	case c.Symbol == "":
		return fmt.Sprintf("%s lines %d-%d of %s (outside declarations)", c.Kind, c.Start, c.End, c.Path)
	case c.Kind == ChangeDeleted:
		return fmt.Sprintf("deleted %s %s (was %s)", c.SymKind, c.Symbol, loc)
	case c.Kind == ChangeMoved:
		return fmt.Sprintf("moved %s %s (%s, from %s)", c.SymKind, c.Symbol, loc, c.From)
	}
	return fmt.Sprintf("%s %s %s (%s)", c.Kind, c.SymKind, c.Symbol, loc)
}

// Sources gives the old side of a changed file.
type Sources interface {
	// Base returns the content of f on the old side (at f.OldPath).
	Base(ctx context.Context, f *File) ([]byte, error)
}

// Report is what a diff changed, symbol by symbol.
type Report struct {
	Changes []Change
	// Notes say what was not mapped and why: binary files, submodules,
	// mode changes, files the facts do not hold, bases that could not be
	// read.
	Notes []string
}

// Map finds the symbols each file of d changes. facts describe the new
// side; src gives the old side when a file lost lines (nil: deletions are
// not reported). Changes come in diff order, then by line.
func Map(ctx context.Context, facts *analyze.Facts, d *Diff, src Sources) (*Report, error) {
	r := &Report{}
	if d.Truncated {
		r.Notes = append(r.Notes, d.Limit)
	}
	if d.Combined > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d combined (merge) diffs were skipped; diff against one parent to review them", d.Combined))
	}
	for i := range d.Files {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		f := &d.Files[i]
		r.mapFile(ctx, facts, f, src)
	}
	r.pairMoves()
	return r, nil
}

func (r *Report) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// mapFile maps the hunks of one file.
func (r *Report) mapFile(ctx context.Context, facts *analyze.Facts, f *File, src Sources) {
	switch {
	case f.Submodule:
		r.notef("submodule %s moved from %s to %s; its content is not reviewed", f.Path(), orNone(f.OldCommit), orNone(f.NewCommit))
		return
	case f.Binary:
		r.notef("binary file %s %s; its content is not shown", f.Path(), f.Status)
		return
	}
	if f.Status == Renamed || f.Status == Copied {
		r.notef("%s", f.Title())
	}
	if f.ModeChanged() {
		r.notef("mode of %s changed from %s to %s", f.Path(), f.OldMode, f.NewMode)
	}
	lang := analyze.LangOf(f.Path())
	if lang == analyze.LangUnknown && (f.OldPath == "" || analyze.LangOf(f.OldPath) == analyze.LangUnknown) {
		return // shown in the diff, nothing to map
	}

	var head []Decl
	headFile := ""
	if f.NewPath != "" {
		if fid, ok := facts.FileByPath(f.NewPath); ok {
			head = HeadDecls(facts, fid)
			headFile = f.NewPath
		} else {
			r.notef("%s is not among the analysed sources (ignored, excluded or unparsable); its changes are shown but not followed", f.NewPath)
		}
	}

	// The base, when lines were removed or the file is new to compare.
	var base []Decl
	haveBase := false
	_, removed := f.Stat()
	if f.OldPath != "" && src != nil && (removed > 0 || f.Status == Deleted || f.Status == Modified || f.Status == Renamed) {
		data, err := src.Base(ctx, f)
		if err != nil {
			r.notef("could not read the base of %s (%v); symbols deleted there are not reported", f.OldPath, err)
		} else if BaseScanned(f.OldPath) {
			base = BaseDecls(f.OldPath, data)
			haveBase = true
		} else if removed > 0 || f.Status == Deleted {
			// Symbols from a SCIP index describe the new side only: what
			// changed is reported as modified, and deletions are not seen.
			r.notef("the base of %s is not scanned for symbols (a language known through SCIP only); symbols deleted there are not reported", f.OldPath)
		}
	}
	// Impl blocks and modules are never reported, and the loaders name
	// impl blocks their own way: they take no part in matching.
	baseKeys := map[string]bool{}
	for i := range base {
		if matchable(&base[i]) {
			baseKeys[base[i].key()] = true
		}
	}
	headKeys := map[string]bool{}
	for i := range head {
		if matchable(&head[i]) {
			headKeys[head[i].key()] = true
		}
	}

	touched := map[int]int{} // head decl → changed lines
	var outside [][2]int     // new-side line ranges outside any declaration
	baseTouched := map[int]int{}
	for _, h := range f.Hunks {
		for _, run := range h.Runs() {
			for k, n := range run.New {
				if i := innermost(head, n); i >= 0 {
					touched[i]++
				} else if headFile != "" && strings.TrimSpace(run.NewText[k]) != "" {
					outside = addRange(outside, n)
				}
			}
			if len(run.New) == 0 && len(run.Old) > 0 {
				if i := enclosing(head, run.At-1); i >= 0 {
					touched[i] += 0 // marks it; the base counts the lines
				}
			}
			for _, o := range run.Old {
				if i := innermost(base, o); i >= 0 {
					baseTouched[i]++
				}
			}
		}
	}
	// A base declaration that lost lines is modified when it is still
	// there, deleted when it is not.
	var changes []Change
	for _, bi := range sortedKeys(baseTouched) {
		b := &base[bi]
		if headKeys[b.key()] {
			for hi := range head {
				if head[hi].key() == b.key() && reportable(head, hi) == hi {
					touched[hi] += baseTouched[bi]
					break
				}
			}
			continue
		}
		c := Change{Kind: ChangeDeleted, Path: f.OldPath, Symbol: b.Qual(analyze.LangOf(f.OldPath)), SymKind: b.Kind, Start: b.Start, End: b.End, Lines: baseTouched[bi]}
		if headFile != "" {
			c.HeadPath = headFile
			c.At = deletionPoint(f, b.Start, b.End)
		}
		changes = append(changes, c)
	}
	if f.Status == Deleted && !haveBase && src != nil {
		r.notef("deleted file %s: its symbols are unknown", f.OldPath)
	}
	for _, hi := range sortedKeys(touched) {
		d := &head[hi]
		kind := ChangeModified
		if f.Status == Added || (haveBase && !baseKeys[d.key()]) {
			kind = ChangeAdded
		}
		changes = append(changes, Change{Kind: kind, Path: headFile, Symbol: d.Qual(lang), SymKind: d.Kind, Start: d.Start, End: d.End, Lines: touched[hi]})
	}
	if f.Status == Added && len(touched) > 0 {
		outside = nil // a new file's package clause and imports
	}
	for _, rg := range outside {
		changes = append(changes, Change{Kind: ChangeModified, Path: headFile, Start: rg[0], End: rg[1], Lines: rg[1] - rg[0] + 1})
	}
	if len(changes) == 0 && headFile != "" && (f.Status == Renamed || f.Status == Copied) {
		changes = append(changes, Change{Kind: ChangeRenamed, Path: headFile, From: f.OldPath})
	}
	if len(changes) == 0 && headFile != "" && f.Status == Added {
		changes = append(changes, Change{Kind: ChangeAdded, Path: headFile, Start: 1, End: max(1, facts.Files[mustFile(facts, headFile)].Lines)})
	}
	sort.SliceStable(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		if (a.Kind == ChangeDeleted) != (b.Kind == ChangeDeleted) {
			return b.Kind == ChangeDeleted
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.Symbol < b.Symbol
	})
	r.Changes = append(r.Changes, changes...)
}

func matchable(d *Decl) bool { return d.Kind != analyze.KindImpl && d.Kind != analyze.KindModule }

func mustFile(facts *analyze.Facts, p string) analyze.FileID {
	id, _ := facts.FileByPath(p)
	return id
}

// addRange extends the last range by line n when adjacent, else starts a
// new one.
func addRange(rs [][2]int, n int) [][2]int {
	if k := len(rs); k > 0 && rs[k-1][1]+1 >= n {
		rs[k-1][1] = max(rs[k-1][1], n)
		return rs
	}
	return append(rs, [2]int{n, n})
}

// deletionPoint is the new-side line that follows the removal of old
// lines start..end: the At of the run that removed start.
func deletionPoint(f *File, start, end int) int {
	for _, h := range f.Hunks {
		for _, run := range h.Runs() {
			for _, o := range run.Old {
				if o >= start && o <= end {
					return run.At
				}
			}
		}
	}
	return 0
}

func sortedKeys(m map[int]int) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// pairMoves turns a deletion and an addition of the same name and kind in
// the same directory into a move.
func (r *Report) pairMoves() {
	type key struct {
		dir, name string
		kind      analyze.SymbolKind
	}
	added := map[key][]int{}
	for i, c := range r.Changes {
		if c.Kind == ChangeAdded && c.Symbol != "" {
			k := key{path.Dir(c.Path), c.Symbol, c.SymKind}
			added[k] = append(added[k], i)
		}
	}
	drop := map[int]bool{}
	for i, c := range r.Changes {
		if c.Kind != ChangeDeleted {
			continue
		}
		ids := added[key{path.Dir(c.Path), c.Symbol, c.SymKind}]
		if len(ids) != 1 || r.Changes[ids[0]].Path == c.Path {
			continue
		}
		a := &r.Changes[ids[0]]
		a.Kind = ChangeMoved
		a.From = fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End)
		drop[i] = true
	}
	if len(drop) == 0 {
		return
	}
	kept := r.Changes[:0]
	for i, c := range r.Changes {
		if !drop[i] {
			kept = append(kept, c)
		}
	}
	r.Changes = kept
}
