package rank

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
)

// referenceTokens is what one file contributes to the index, computed the
// plain way (maps of strings, sorted at the end), to check the tokenizer
// against.
func referenceTokens(facts *analyze.Facts, fid analyze.FileID, src Source) (*orderedTokens, float32, float32) {
	f := &facts.Files[fid]
	file, path, plain := map[string]float32{}, map[string]float32{}, map[string]float32{}
	sym := map[analyze.SymID]map[string]float32{}
	slen := map[analyze.SymID]float32{}
	var flen, plen float32
	bm25.Terms([]byte(f.Path), func(t string) { plain[t] += bm25.PathWeight; plen += bm25.PathWeight })
	comps := strings.Split(strings.TrimSuffix(f.Path, ".go"), "/")
	for i, comp := range comps {
		w := float32(1)
		if i == len(comps)-1 {
			w = 2
		}
		for _, t := range identTermStrings(comp) {
			path[t] = max(path[t], w)
		}
	}
	for t := range path {
		file[t] += pathRepeat
		flen += pathRepeat
	}
	add := func(s analyze.SymID, t string, w float32) {
		if sym[s] == nil {
			sym[s] = map[string]float32{}
		}
		sym[s][t] += w
		slen[s] += w
	}
	syms := facts.SymbolsIn(fid)
	for _, s := range syms {
		if sy := &facts.Symbols[s]; ownsDoc(sy.Kind) {
			for _, t := range identTermStrings(sy.Name) {
				add(s, t, weightName)
			}
			for _, t := range identTermStrings(sy.Container) {
				add(s, t, weightContainer)
			}
		}
	}
	if content, err := src.Content(fid); err == nil {
		lines := strings.Split(string(content), "\n")
		owner := lineOwners(facts, syms, len(lines))
		for i, l := range lines {
			analyze.Identifiers([]byte(l), func(tok []byte) {
				bm25.IdentTerms(string(tok), func(t string) { plain[t]++; plen++ })
				for _, t := range identTermStrings(string(tok)) {
					file[t]++
					flen++
					if owner[i] != analyze.NoSym {
						add(owner[i], t, weightBody)
					}
				}
			})
		}
	}
	list := func(m map[string]float32) []termWeight {
		var out []termWeight
		for _, t := range sortedKeys(m) {
			out = append(out, termWeight{term: t, w: m[t]})
		}
		return out
	}
	o := &orderedTokens{file: list(file), path: list(path), plain: list(plain)}
	var ss []analyze.SymID
	for s := range sym {
		ss = append(ss, s)
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i] < ss[j] })
	for _, s := range ss {
		o.syms = append(o.syms, symTerms{sym: s, slen: slen[s], terms: list(sym[s])})
	}
	return o, flen, plen
}

// randomFacts makes files of random identifiers (camelCase, snake_case,
// stop words, digits, non-ASCII) with nested symbols, so that the lines
// of a container alternate with those of its members, and a file whose
// content cannot be read.
func randomFacts(r *rand.Rand) (*analyze.Facts, Source) {
	words := []string{"find", "user", "by", "email", "the", "Session", "token", "HTTP", "server", "fix", "utf8", "naïve", "x", "a1", "get", "Get", "issue", "add"}
	ident := func() string {
		n := 1 + r.IntN(3)
		var b strings.Builder
		for i := 0; i < n; i++ {
			w := words[r.IntN(len(words))]
			switch r.IntN(3) {
			case 0:
				if i > 0 {
					b.WriteByte('_')
				}
				b.WriteString(strings.ToLower(w))
			case 1:
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			default:
				b.WriteString(w)
			}
		}
		return b.String()
	}
	var f analyze.Facts
	src := mapSource{}
	for fi := 0; fi < 6; fi++ {
		p := fmt.Sprintf("pkg/%s/%s.go", strings.ToLower(ident()), ident())
		lines := 5 + r.IntN(60)
		var text strings.Builder
		for l := 0; l < lines; l++ {
			for k := r.IntN(6); k > 0; k-- {
				text.WriteString(ident())
				text.WriteString([]string{" ", "(", ".", "::", " 42 ", "\t"}[r.IntN(6)])
			}
			text.WriteByte('\n')
		}
		if fi != 3 {
			src[p] = text.String()
		}
		id := f.AddFile(analyze.File{Path: p, Lang: analyze.LangGo})
		for s := 0; s < r.IntN(8); s++ {
			start := 1 + r.IntN(lines)
			end := min(lines, start+r.IntN(20))
			kind := []analyze.SymbolKind{analyze.KindFunc, analyze.KindMethod, analyze.KindStruct, analyze.KindField, analyze.KindImpl}[r.IntN(5)]
			container := ""
			if kind == analyze.KindMethod {
				container = ident()
			}
			f.AddSymbol(analyze.Symbol{Name: ident(), Container: container, Kind: kind, File: id, Start: start, End: end, DeclLine: start, Parent: analyze.NoSym})
		}
	}
	f.Normalize()
	return &f, sourceFunc(func(id analyze.FileID) ([]byte, error) {
		text, ok := src[f.Files[id].Path]
		if !ok {
			return nil, errors.New("unreadable")
		}
		return []byte(text), nil
	})
}

// TestTokenizerMatchesReference checks the tokenizer's counts and order
// against the plain computation, file by file, on random files tokenised
// one after another by the same tokenizer.
func TestTokenizerMatchesReference(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		facts, src := randomFacts(rand.New(rand.NewPCG(seed, 7)))
		tk := newTokenizer()
		var got []*fileTokens
		for i := range facts.Files {
			got = append(got, tk.file(facts, analyze.FileID(i), src))
		}
		tk.sortVocab()
		for i, ft := range got {
			tk.finish(ft)
			want, flen, plen := referenceTokens(facts, analyze.FileID(i), src)
			opts := cmp.Comparer(func(a, b termWeight) bool { return a.term == b.term && a.w == b.w })
			if diff := cmp.Diff(want, ft.ord, cmp.AllowUnexported(orderedTokens{}, symTerms{}), opts); diff != "" {
				t.Fatalf("seed %d, %s (-want +got):\n%s", seed, facts.Files[i].Path, diff)
			}
			if ft.flen != flen || ft.plen != plen {
				t.Fatalf("seed %d, %s: lengths %v %v, want %v %v", seed, facts.Files[i].Path, ft.flen, ft.plen, flen, plen)
			}
		}
	}
}

// TestIndexSameAcrossWorkers checks that the index, term ids included,
// does not depend on how files were spread over workers (each has its own
// vocabulary).
func TestIndexSameAcrossWorkers(t *testing.T) {
	facts, src := randomFacts(rand.New(rand.NewPCG(1, 2)))
	build := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		ix, err := BuildIndex(context.Background(), facts, src)
		if err != nil {
			t.Fatal(err)
		}
		return encodeIndex(ix)
	}
	one := build(1)
	for _, procs := range []int{2, 3, 8} {
		if got := build(procs); string(got) != string(one) {
			t.Errorf("GOMAXPROCS=%d: the index differs from GOMAXPROCS=1's", procs)
		}
	}
}
