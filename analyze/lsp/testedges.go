package lsp

import (
	"path"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// testEdges adds a tests edge from each test to everything it calls or
// references, and (Go) to the symbol its name designates:
// TestUserService_FindByEmail → UserService.FindByEmail, TestParse →
// Parse, in the test's directory. Designation is by name, so inexact.
func (l *loader) testEdges() {
	n := len(l.facts.Edges)
	for i := 0; i < n; i++ {
		e := l.facts.Edges[i]
		if (e.Kind == analyze.EdgeCalls || e.Kind == analyze.EdgeReferences) && l.facts.Symbols[e.From].Test && !l.facts.Symbols[e.To].Test {
			l.facts.AddEdge(analyze.Edge{From: e.From, To: e.To, Kind: analyze.EdgeTests, Exact: e.Exact, Line: e.Line})
		}
	}
	if l.lang != analyze.LangGo {
		return
	}
	type nameKey struct{ dir, container, name string }
	byName := make(map[nameKey][]analyze.SymID)
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if s.Test || s.Kind == analyze.KindField {
			continue
		}
		k := nameKey{path.Dir(l.facts.Files[s.File].Path), s.Container, s.Name}
		byName[k] = append(byName[k], analyze.SymID(i))
	}
	for i := range l.facts.Symbols {
		s := &l.facts.Symbols[i]
		if !s.Test {
			continue
		}
		subject := s.Name
		for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if rest, ok := strings.CutPrefix(subject, prefix); ok {
				subject = strings.TrimPrefix(rest, "_")
				break
			}
		}
		if subject == "" {
			continue
		}
		dir := path.Dir(l.facts.Files[s.File].Path)
		typ, member, hasMember := strings.Cut(subject, "_")
		var to []analyze.SymID
		if hasMember {
			to = byName[nameKey{dir, typ, member}]
		}
		if len(to) == 0 {
			to = byName[nameKey{dir, "", typ}]
		}
		if len(to) == 0 {
			to = byName[nameKey{dir, "", lowerFirst(typ)}]
		}
		if len(to) > 3 {
			continue
		}
		for _, t := range to {
			l.facts.AddEdge(analyze.Edge{From: analyze.SymID(i), To: t, Kind: analyze.EdgeTests, Line: s.DeclLine})
		}
	}
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
