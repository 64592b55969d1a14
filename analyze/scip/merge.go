package scip

import (
	"github.com/ctxexpand/ctxexpand/analyze"
)

// MergeStats says what Merge did.
type MergeStats struct {
	Overlaid  int // files analysed by a loader whose edges the index replaced
	Added     int // files known only through the index
	Matched   int // index definitions matched to a loader's symbols
	Dropped   int // by-name edges of the loader removed
	EdgesSCIP int // edges taken from the index
}

// replaced are the edge kinds an index's occurrences and relationships
// speak for: a loader's by-name edge of these kinds, leaving a file the
// index covers, is dropped.
var replaced = map[analyze.EdgeKind]bool{
	analyze.EdgeCalls: true, analyze.EdgeReferences: true, analyze.EdgeImplements: true, analyze.EdgeMacro: true,
}

// Merge lays r over base, the facts of our own loaders. Files only the
// index knows are appended with their symbols; in files both know, the
// index's definitions are matched to the loader's symbols (same name on
// the same line, else the only one of that name and container in the
// file), the loader's by-name edges of the kinds the index speaks for are
// dropped, and the index's edges between matched or appended symbols are
// added. base need not be normalised; call Normalize afterwards.
func Merge(base *analyze.Facts, r *Result) MergeStats {
	var st MergeStats
	if r == nil || r.Facts == nil {
		return st
	}
	sf := r.Facts
	base.Problems = append(base.Problems, sf.Problems...)

	// Files: overlaid (the loader has them) or appended.
	fileMap := make([]analyze.FileID, len(sf.Files))
	overlaid := make([]bool, len(sf.Files))
	overlaidBase := map[analyze.FileID]bool{}
	for i, f := range sf.Files {
		if id, ok := base.FileByPath(f.Path); ok {
			fileMap[i] = id
			overlaid[i] = true
			if r.Fresh[f.Path] {
				overlaidBase[id] = true
				st.Overlaid++
			}
			continue
		}
		fileMap[i] = base.AddFile(f)
		if !f.Degraded {
			st.Added++
		}
	}

	// Symbols: matched to the loader's in overlaid files, appended in the
	// others.
	type key struct {
		file analyze.FileID
		name string
		line int
	}
	byLine := map[key]analyze.SymID{}
	type nameKey struct {
		file            analyze.FileID
		name, container string
	}
	byName := map[nameKey][]analyze.SymID{}
	for i, s := range base.Symbols {
		if overlaidBase[s.File] {
			byLine[key{s.File, s.Name, s.DeclLine}] = analyze.SymID(i)
			nk := nameKey{s.File, s.Name, s.Container}
			byName[nk] = append(byName[nk], analyze.SymID(i))
		}
	}
	symMap := make([]analyze.SymID, len(sf.Symbols))
	for i, s := range sf.Symbols {
		symMap[i] = analyze.NoSym
		if overlaid[s.File] {
			fid := fileMap[s.File]
			if id, ok := byLine[key{fid, s.Name, s.DeclLine}]; ok {
				symMap[i] = id
				st.Matched++
			} else if ids := byName[nameKey{fid, s.Name, s.Container}]; len(ids) == 1 {
				symMap[i] = ids[0]
				st.Matched++
			}
			continue
		}
		s.File = fileMap[s.File]
		s.Parent = analyze.NoSym // set below, once every symbol has its ID
		symMap[i] = base.AddSymbol(s)
	}
	for i, s := range sf.Symbols {
		if overlaid[s.File] || s.Parent == analyze.NoSym {
			continue
		}
		base.Symbols[symMap[i]].Parent = symMap[s.Parent]
	}

	// Edges: the loader's by-name ones leaving overlaid files go; the
	// index's come in.
	kept := base.Edges[:0]
	for _, e := range base.Edges {
		if !e.Exact && replaced[e.Kind] && overlaidBase[base.Symbols[e.From].File] {
			st.Dropped++
			continue
		}
		kept = append(kept, e)
	}
	base.Edges = kept
	for _, e := range sf.Edges {
		from, to := symMap[e.From], symMap[e.To]
		if from == analyze.NoSym || to == analyze.NoSym {
			continue
		}
		if overlaid[sf.Symbols[e.From].File] && (e.Kind == analyze.EdgeMethodOf || e.Kind == analyze.EdgeField) {
			continue // the loader's own structure stands in files it analysed
		}
		e.From, e.To = from, to
		base.AddEdge(e)
		st.EdgesSCIP++
	}
	for _, im := range sf.Imports {
		if overlaid[im.File] {
			continue // the loader records its files' imports
		}
		im.File = fileMap[im.File]
		base.Imports = append(base.Imports, im)
	}
	return st
}
