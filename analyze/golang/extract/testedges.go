package extract

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// testEdges adds the tests edges: from each test function to everything it
// calls or references, and to the symbol its name designates
// (TestUserService_FindByEmail → UserService.FindByEmail, TestParse →
// Parse, ExampleT_M → T.M), looked up in the packages of the test's
// directory. Designation is by name only, so those edges are inexact unless
// the test also calls its subject.
func (m *Merger) testEdges() {
	n := len(m.facts.Edges)
	for i := 0; i < n; i++ {
		e := m.facts.Edges[i]
		if (e.Kind == analyze.EdgeCalls || e.Kind == analyze.EdgeReferences) && m.facts.Symbols[e.From].Test {
			m.facts.AddEdge(analyze.Edge{From: e.From, To: e.To, Kind: analyze.EdgeTests, Exact: e.Exact, Line: e.Line})
		}
	}
	for i, rec := range m.recs {
		s := &m.facts.Symbols[i]
		if !s.Test {
			continue
		}
		subject, _ := testSubject(s.Name)
		if subject == "" {
			continue
		}
		info := m.scopes[rec.Scope]
		if info == nil {
			continue
		}
		for _, to := range m.designated(info.dir, subject) {
			m.facts.AddEdge(analyze.Edge{From: analyze.SymID(i), To: to, Kind: analyze.EdgeTests, Line: s.DeclLine})
		}
	}
}

// designated finds what a test subject names among the packages of dir,
// the package under test before the external test package.
func (m *Merger) designated(dir, subject string) []analyze.SymID {
	scopes := append([]string(nil), m.dirScopes[dir]...)
	sort.SliceStable(scopes, func(i, j int) bool {
		return !strings.HasSuffix(scopes[i], "_test") && strings.HasSuffix(scopes[j], "_test")
	})
	typ, member, hasMember := strings.Cut(subject, "_")
	for _, name := range []string{typ, lowerFirst(typ)} {
		if hasMember {
			for _, sc := range scopes {
				if id, ok := m.methods[memberKey{sc, name, member}]; ok {
					return []analyze.SymID{id}
				}
				if id, ok := m.methods[memberKey{sc, name, lowerFirst(member)}]; ok {
					return []analyze.SymID{id}
				}
			}
		}
		for _, sc := range scopes {
			var out []analyze.SymID
			for _, id := range m.top[sc][name] {
				if !m.facts.Symbols[id].Test {
					out = append(out, id)
				}
			}
			if len(out) > 0 && len(out) <= maxByName {
				return out
			}
		}
	}
	// A method of some type in the package: TestFindByEmail → UserService.FindByEmail,
	// when exactly one method has the name.
	var found []analyze.SymID
	for _, id := range m.byName[typ] {
		if info := m.scopes[m.recs[id].Scope]; info != nil && info.dir == dir && m.recs[id].Parent == (Key{}) {
			found = append(found, id)
		}
	}
	if len(found) == 1 {
		return found
	}
	return nil
}

func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToLower(r)) + s[size:]
}
