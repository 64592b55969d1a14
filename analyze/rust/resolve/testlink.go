package resolve

import (
	"context"
	"slices"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// linkTests adds EdgeTests from test code to the non-test items it calls,
// references or whose macros it invokes, and from each test function to the
// item its name designates (find_by_email_returns_user tests
// find_by_email) when exactly one item in its scope has that name. The
// latter runs on the workers (eachFile), each with its own memo of test
// scopes.
func (r *resolver) linkTests(ctx context.Context) {
	n := len(r.facts.Edges)
	var tests []analyze.Edge
	for i := 0; i < n; i++ {
		e := r.facts.Edges[i]
		switch e.Kind {
		case analyze.EdgeCalls, analyze.EdgeReferences, analyze.EdgeMacro:
		default:
			continue
		}
		if r.isTestCode(e.From) && !r.isTestCode(e.To) {
			tests = append(tests, analyze.Edge{From: e.From, To: e.To, Kind: analyze.EdgeTests, Exact: e.Exact, Line: e.Line})
		}
	}
	r.facts.Edges = slices.Grow(r.facts.Edges, len(tests))
	for _, e := range tests {
		r.facts.AddEdge(e)
	}
	r.eachFile(ctx, func(w *resolver, fi int, fd *fileData) {
		for idx := range fd.syn.Items {
			it := &fd.syn.Items[idx]
			if !it.Test {
				continue
			}
			s := fd.base + analyze.SymID(idx)
			m := w.symMod[s]
			if m == nil {
				continue
			}
			names, ok := w.testScopes[m]
			if !ok {
				names = w.testScope(m)
				w.testScopes[m] = names
			}
			if t, ok := designated(it.Name, names); ok && !w.isTestCode(t) {
				w.addEdge(analyze.Edge{From: s, To: t, Kind: analyze.EdgeTests, Exact: false, Line: it.Decl})
			}
		}
	})
}

// testScope indexes by normalised name the items a test in module m can
// mean: for a #[cfg(test)] module, the items of the module it tests and
// the methods of its types; plus everything m imports and those types'
// methods (how integration tests reach the crate).
func (r *resolver) testScope(m *module) map[string][]analyze.SymID {
	names := map[string][]analyze.SymID{}
	add := func(s analyze.SymID) {
		if r.isTestCode(s) {
			return
		}
		k := analyze.NormName(r.facts.Symbols[s].Name)
		if !containsSym(names[k], s) {
			names[k] = append(names[k], s)
		}
	}
	addWithMembers := func(s analyze.SymID) {
		sym := &r.facts.Symbols[s]
		if !sym.Kind.IsCallable() && !sym.Kind.IsType() {
			return
		}
		add(s)
		for _, t := range r.typeTargets(s, 0) {
			for _, ms := range r.members[t] {
				for _, x := range ms {
					if r.facts.Symbols[x].Kind.IsCallable() {
						add(x)
					}
				}
			}
		}
	}
	addModule := func(mm *module) {
		for _, ss := range mm.items {
			for _, s := range ss {
				addWithMembers(s)
			}
		}
	}
	if m.cfgTest && m.parent != nil {
		addModule(m.parent)
	}
	addModule(m)
	for _, us := range m.uses {
		for _, u := range us {
			for _, s := range r.resolveUse(u).syms {
				addWithMembers(s)
			}
		}
	}
	for _, g := range m.globs {
		for _, gm := range r.resolveUse(g).mods {
			if gm != m {
				addModule(gm)
			}
		}
	}
	return names
}

// designated returns the one item that a test's name starts with:
// test_find_by_email_returns_user → find_by_email, trying the longest
// prefix of its words first. An ambiguous prefix designates nothing.
func designated(test string, names map[string][]analyze.SymID) (analyze.SymID, bool) {
	name := strings.TrimPrefix(test, "test_")
	name = strings.TrimSuffix(strings.TrimSuffix(name, "_tests"), "_test")
	words := strings.Split(name, "_")
	for k := len(words); k >= 1; k-- {
		key := analyze.NormName(strings.Join(words[:k], "_"))
		if key == "" {
			continue
		}
		switch c := names[key]; len(c) {
		case 0:
			continue
		case 1:
			return c[0], true
		default:
			return analyze.NoSym, false
		}
	}
	return analyze.NoSym, false
}
