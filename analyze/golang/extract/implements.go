package extract

import (
	"go/token"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// implements adds an implements edge from each repository type to each
// non-empty repository interface whose methods it has (through a value or
// a pointer receiver). Type-checked method sets compare by full signature
// and give exact edges; when either side is known from syntax only, the
// comparison is by method name and arity and the edge is inexact.
func (m *Merger) implements(typed []MethodSet) {
	sets := make(map[analyze.SymID]*MethodSet)
	var ifaces []analyze.SymID
	for i := range typed {
		ms := &typed[i]
		id, ok := m.ids[ms.Key]
		if !ok {
			continue
		}
		if _, dup := sets[id]; dup {
			continue
		}
		ms.Arity = m.qualifyArity(ms.Scope, ms.Arity, ms.Exact != nil)
		sets[id] = ms
	}
	m.syntaxMethodSets(sets)
	for id, ms := range sets {
		if ms.Iface && len(ms.Arity) > 0 {
			ifaces = append(ifaces, id)
		}
	}
	sort.Slice(ifaces, func(i, j int) bool { return ifaces[i] < ifaces[j] })

	// Index interfaces by their first method; a type can only implement an
	// interface whose first method it has.
	byAnchor := make(map[string][]analyze.SymID)
	for _, id := range ifaces {
		a := sets[id].Arity[0]
		byAnchor[a] = append(byAnchor[a], id)
	}
	types := make([]analyze.SymID, 0, len(sets))
	for id, ms := range sets {
		if !ms.Iface {
			types = append(types, id)
		}
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	for _, tid := range types {
		t := sets[tid]
		for _, a := range t.Arity {
			for _, iid := range byAnchor[a] {
				i := sets[iid]
				var ok, exact bool
				if t.Exact != nil && i.Exact != nil {
					ok, exact = subset(i.Exact, t.Exact), true
				} else {
					ok = subset(i.Arity, t.Arity)
				}
				if ok {
					m.facts.AddEdge(analyze.Edge{From: tid, To: iid, Kind: analyze.EdgeImplements, Exact: exact})
				}
			}
		}
	}
}

// syntaxMethodSets adds method sets for the types that have no typed one:
// interfaces whose methods were all declared in place, and other types
// with the methods declared on them.
func (m *Merger) syntaxMethodSets(sets map[analyze.SymID]*MethodSet) {
	type group struct {
		scope, typ string
		arity      []string
	}
	declared := make(map[memberKey]*group)
	var order []memberKey
	for i, rec := range m.recs {
		s := &m.facts.Symbols[i]
		if s.Kind != analyze.KindMethod || s.Container == "" || rec.Arity == "" {
			continue
		}
		k := memberKey{scope: rec.Scope, typ: s.Container}
		g := declared[k]
		if g == nil {
			g = &group{scope: rec.Scope, typ: s.Container}
			declared[k] = g
			order = append(order, k)
		}
		g.arity = append(g.arity, s.Name+"/"+rec.Arity)
	}
	for _, k := range order {
		g := declared[k]
		ts := m.typesNamed(g.scope, g.typ)
		if len(ts) == 0 {
			continue
		}
		tid := ts[0]
		if _, ok := sets[tid]; ok {
			continue // type-checked
		}
		kind := m.facts.Symbols[tid].Kind
		if kind == analyze.KindTypeAlias {
			continue
		}
		iface := kind == analyze.KindInterface
		if iface && m.hasEmbeds(tid) {
			continue // its method set is not all in view
		}
		sort.Strings(g.arity)
		sets[tid] = &MethodSet{Key: m.recs[tid].Key, Scope: g.scope, Iface: iface, Arity: m.qualifyArity(g.scope, dedupe(g.arity), false)}
	}
}

// hasEmbeds reports whether a type embeds another (by an exact edge or a
// syntactic reference, resolved or not).
func (m *Merger) hasEmbeds(id analyze.SymID) bool { return m.embedding[id] }

// qualifyArity prefixes unexported method names with the package's import
// path, as type-checked method sets do, so that an unexported interface
// method is only satisfied from its own package. Typed sets already carry
// the prefix.
func (m *Merger) qualifyArity(scope string, arity []string, typed bool) []string {
	if typed {
		return arity
	}
	info := m.scopes[scope]
	out := make([]string, len(arity))
	for i, a := range arity {
		if a != "" && !analyzeExported(a) && info != nil {
			a = info.importPath + "." + a
		}
		out[i] = a
	}
	sort.Strings(out)
	return out
}

func analyzeExported(nameArity string) bool {
	name, _, _ := strings.Cut(nameArity, "/")
	return token.IsExported(name)
}

// subset reports whether every element of the sorted a is in the sorted b.
func subset(a, b []string) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
