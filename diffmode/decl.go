package diffmode

import (
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Decl is a declaration with its span, on either side of a diff: from the
// facts for the new side, from a light scan of the old text for the base.
type Decl struct {
	Name      string
	Container string // receiver, impl or trait type; "" at top level
	Kind      analyze.SymbolKind
	Start     int // first line, 1-based, with the doc comment
	End       int // last line, inclusive
	Parent    int // index of the enclosing Decl in the same slice, or -1
}

// Qual is the name with its container, written the language's way.
func (d *Decl) Qual(lang analyze.Lang) string {
	if d.Container == "" {
		return d.Name
	}
	if lang == analyze.LangRust {
		return d.Container + "::" + d.Name
	}
	return d.Container + "." + d.Name
}

// key identifies a declaration across the two sides of a diff: its
// container, name and class of kind, so that a Rust getter and the field
// it reads (both UserService.store) stay apart while kinds the loaders
// and the base scan tell apart differently (a Go struct, a named type)
// still match.
func (d *Decl) key() string { return kindClass(d.Kind) + d.Container + "\x00" + d.Name }

func kindClass(k analyze.SymbolKind) string {
	switch k {
	case analyze.KindFunc, analyze.KindMethod:
		return "f:"
	case analyze.KindConst, analyze.KindVar, analyze.KindStatic:
		return "v:"
	case analyze.KindField, analyze.KindVariant:
		return "x:"
	case analyze.KindMacro:
		return "m:"
	}
	if k.IsType() || k == analyze.KindAssocType {
		return "t:"
	}
	return "o:"
}

// HeadDecls are the declarations of a file of the facts, in order.
func HeadDecls(facts *analyze.Facts, fid analyze.FileID) []Decl {
	ids := facts.SymbolsIn(fid)
	index := make(map[analyze.SymID]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	out := make([]Decl, 0, len(ids))
	for _, id := range ids {
		s := &facts.Symbols[id]
		parent := -1
		if s.Parent != analyze.NoSym {
			if p, ok := index[s.Parent]; ok {
				parent = p
			}
		}
		out = append(out, Decl{Name: s.Name, Container: s.Container, Kind: s.Kind, Start: s.Start, End: s.End, Parent: parent})
	}
	return out
}

// BaseScanned reports whether BaseDecls can read the base of a file of
// this path: Go and Rust. The languages known only through SCIP indexes
// (TypeScript, JavaScript, Python) have symbols on the new side only.
func BaseScanned(p string) bool {
	l := analyze.LangOf(p)
	return l == analyze.LangGo || l == analyze.LangRust
}

// BaseDecls scans the old text of a file for its declarations: Go through
// go/parser, Rust by a brace-matching scan. Other languages have none.
func BaseDecls(p string, src []byte) []Decl {
	switch analyze.LangOf(p) {
	case analyze.LangGo:
		return scanGo(src)
	case analyze.LangRust:
		return scanRust(src)
	}
	return nil
}

// reportable maps a declaration to the one a change is reported against:
// fields, variants and associated types count as their enclosing type;
// impl blocks and modules are containers, not changes (-1).
func reportable(ds []Decl, i int) int {
	for i >= 0 {
		switch ds[i].Kind {
		case analyze.KindImpl, analyze.KindModule:
			return -1
		case analyze.KindField, analyze.KindVariant, analyze.KindAssocType:
			if ds[i].Parent < 0 {
				return i
			}
			i = ds[i].Parent
			continue
		}
		return i
	}
	return -1
}

// innermost is the reportable declaration whose span holds line, the
// smallest of those that do, or -1.
func innermost(ds []Decl, line int) int {
	best := -1
	for i := range ds {
		d := &ds[i]
		if d.Start > line || line > d.End || d.Kind == analyze.KindImpl || d.Kind == analyze.KindModule {
			continue
		}
		if best < 0 || d.End-d.Start < ds[best].End-ds[best].Start {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	return reportable(ds, best)
}

// enclosing is the innermost reportable declaration holding both line and
// line+1: the one a removal between those lines happened inside.
func enclosing(ds []Decl, line int) int {
	best := -1
	for i := range ds {
		d := &ds[i]
		if d.Start > line || line+1 > d.End || d.Kind == analyze.KindImpl || d.Kind == analyze.KindModule {
			continue
		}
		if best < 0 || d.End-d.Start < ds[best].End-ds[best].Start {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	return reportable(ds, best)
}

// sortDecls orders declarations by position, keeping parent links.
func sortDecls(ds []Decl) []Decl {
	order := make([]int, len(ds))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &ds[order[a]], &ds[order[b]]
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return x.End > y.End
	})
	newIdx := make([]int, len(ds))
	for n, o := range order {
		newIdx[o] = n
	}
	out := make([]Decl, len(ds))
	for n, o := range order {
		d := ds[o]
		if d.Parent >= 0 {
			d.Parent = newIdx[d.Parent]
		}
		out[n] = d
	}
	return out
}
