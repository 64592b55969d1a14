package lsp

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// index builds the lookups from positions to symbols that the edge
// requests need.
func (l *loader) index() {
	l.decls = make(map[declKey][]analyze.SymID, len(l.facts.Symbols))
	l.byFile = make([][]analyze.SymID, len(l.files))
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		id := analyze.SymID(i)
		k := declKey{s.File, s.DeclLine}
		l.decls[k] = append(l.decls[k], id)
		l.byFile[s.File] = append(l.byFile[s.File], id)
	}
	for _, ids := range l.byFile {
		sort.SliceStable(ids, func(a, b int) bool { return l.facts.Symbols[ids[a]].Start < l.facts.Symbols[ids[b]].Start })
	}
}

// fileOf maps a URI from the server to one of the loaded files. Servers
// may spell a file differently than the loader did (escaping, the root
// with its symbolic links resolved).
func (l *loader) fileOf(uri string) (analyze.FileID, bool) {
	if id, ok := l.byURI[uri]; ok {
		return id, true
	}
	p, ok := uriPath(uri)
	if !ok {
		return 0, false
	}
	for _, r := range [2]string{l.root, l.realRoot} {
		if rel, err := filepath.Rel(r, p); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			if id, ok := l.byPath[filepath.ToSlash(rel)]; ok {
				return id, true
			}
		}
	}
	return 0, false
}

// declAt is the symbol whose name is at line (0-based) of file, preferring
// one called name when several are declared on the line.
func (l *loader) declAt(file analyze.FileID, line0 int, name string) analyze.SymID {
	ids := l.decls[declKey{file, line0 + 1}]
	if len(ids) == 0 {
		return analyze.NoSym
	}
	for _, id := range ids {
		if s := &l.facts.Symbols[id]; s.Name == name || strings.HasSuffix(name, "."+s.Name) || strings.HasSuffix(name, ")."+s.Name) {
			return id
		}
	}
	return ids[0]
}

// enclosing is the innermost symbol whose span holds line (1-based).
func (l *loader) enclosing(file analyze.FileID, line int) analyze.SymID {
	best := analyze.NoSym
	bestLen := 0
	for _, id := range l.byFile[file] {
		s := &l.facts.Symbols[id]
		if s.Start > line {
			break
		}
		if line > s.End {
			continue
		}
		if n := s.End - s.Start; best == analyze.NoSym || n < bestLen || n == bestLen && s.Start > l.facts.Symbols[best].Start {
			best, bestLen = id, n
		}
	}
	return best
}

// position is the place of a symbol's name, for position requests.
func (l *loader) position(id analyze.SymID) TextDocumentPositionParams {
	return TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: l.files[l.facts.Symbols[id].File].uri},
		Position:     l.info[id].sel,
	}
}
