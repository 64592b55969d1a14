package rank

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/editdist"
	"github.com/ctxexpand/ctxexpand/query"
)

// Names resolves names written in a query to the symbols of the facts.
type Names struct {
	facts  *analyze.Facts
	byNorm map[string][]analyze.SymID
	norms  []string // distinct normalised names, sorted, for fuzzy search
	// external holds the normalised last elements of imported paths that
	// are not packages of the repository ("strings", "http", "zap"), and
	// Rust's standard crates: a qualifier naming one of these means the
	// entity is someone else's API.
	external map[string]bool
}

// NewNames indexes the symbols of facts by their style-insensitive names.
func NewNames(facts *analyze.Facts) *Names {
	n := &Names{facts: facts, byNorm: map[string][]analyze.SymID{}}
	for i := range facts.Symbols {
		s := &facts.Symbols[i]
		if s.Kind == analyze.KindImpl {
			continue
		}
		k := analyze.NormName(s.Name)
		if k == "" {
			continue
		}
		if _, ok := n.byNorm[k]; !ok {
			n.norms = append(n.norms, k)
		}
		n.byNorm[k] = append(n.byNorm[k], analyze.SymID(i))
	}
	sort.Strings(n.norms)
	n.external = map[string]bool{"std": true, "core": true, "alloc": true}
	internal := map[string]bool{}
	for _, f := range facts.Files {
		internal[f.Package] = true
	}
	for _, im := range facts.Imports {
		if internal[im.Path] {
			continue
		}
		last := im.Path
		if i := strings.LastIndexAny(last, "/:"); i >= 0 {
			last = last[i+1:]
		}
		n.external[analyze.NormName(last)] = true
	}
	// A name that is also a repository package is not external.
	for _, f := range facts.Files {
		delete(n.external, analyze.NormName(f.PkgName))
	}
	return n
}

// How a name matched, strongest first.
const (
	MatchExact     = "exact"             // same spelling, and the qualifier matched if one was given
	MatchStyle     = "style-insensitive" // same name in another case style (find_by_email ~ FindByEmail)
	MatchNameOnly  = "name-only"         // the qualifier matched nothing; the name alone did
	MatchContainer = "container"         // the qualifier named a type whose member is missing
	MatchFuzzy     = "fuzzy"             // a close name (edit distance, prefix)
)

// minFuzzyLen is the shortest name that is matched approximately: shorter
// ones ("v", "id", "err") have too many close neighbours to mean anything.
const minFuzzyLen = 4

// Match is a symbol a name resolved to, with the strength of the match
// (1 for an exact qualified match).
type Match struct {
	Sym      analyze.SymID
	Strength float64
	How      string
}

// Resolution is what became of one entity of the query.
type Resolution struct {
	Entity      query.Entity
	Matches     []Match  // strongest first
	Suggestions []string // close names, when nothing matched well
}

// Resolve finds the symbols an entity names. The last part is the symbol's
// name; earlier parts qualify it (a type, a package, a module path). A
// qualifier that matches the symbol's container or package makes the match
// exact; when no candidate satisfies the qualifier, the name alone still
// matches, weaker. A name defined in many places is weakened in proportion.
func (n *Names) Resolve(e query.Entity) Resolution {
	res := Resolution{Entity: e}
	parts := e.Parts
	if len(parts) == 0 {
		parts = []string{e.Raw}
	}
	name := parts[len(parts)-1]
	quals := parts[:len(parts)-1]
	key := analyze.NormName(name)
	cands := n.byNorm[key]

	if len(cands) > 0 {
		var qualified []analyze.SymID
		if len(quals) > 0 {
			for _, s := range cands {
				if n.qualifies(s, quals) {
					qualified = append(qualified, s)
				}
			}
		}
		base := cands
		how := ""
		strength := 1.0
		switch {
		case len(quals) > 0 && len(qualified) > 0:
			base = qualified
		case len(quals) > 0 && n.isExternal(quals):
			// strings.Count, std::fs::read: another package's API, not
			// the repository's namesakes.
			return res
		case len(quals) > 0:
			how, strength = MatchNameOnly, 0.35
		}
		spread := spreadFactor(len(base))
		for _, s := range base {
			h, st := how, strength
			if h == "" {
				if n.facts.Symbols[s].Name == name {
					h = MatchExact
				} else {
					h, st = MatchStyle, 0.9
					switch {
					case len(quals) == 0 && foreignStyle(name, n.facts.Files[n.facts.Symbols[s].File].Lang):
						// An unqualified get_certificate in a Go repository is
						// more often a configuration key, a flag or a JSON field
						// than a reference to GetCertificate.
						st = 0.55
					case len(quals) == 0 && caseless(name):
						// A lone lower-case word (`stdin`, `serde`, `cp`)
						// carries no style: it names the concept, a command
						// or a crate as often as the type or constant
						// spelled Stdin, SERDE or Cp.
						st = 0.45
					}
				}
			}
			res.Matches = append(res.Matches, Match{Sym: s, Strength: st * spread, How: h})
		}
		if len(quals) > 0 && len(qualified) == 0 {
			res.Matches = append(res.Matches, n.containerMatches(quals)...)
		}
	}
	for len(cands) == 0 {
		if len(quals) > 0 && n.isExternal(quals) {
			break
		}
		if len(quals) > 0 {
			res.Matches = append(res.Matches, n.containerMatches(quals)...)
		}
		if len(key) < minFuzzyLen {
			break
		}
		fuzzy := n.fuzzy(key, 5)
		for _, k := range fuzzy {
			for _, s := range n.byNorm[k] {
				res.Matches = append(res.Matches, Match{Sym: s, Strength: 0.4 * spreadFactor(len(n.byNorm[k])), How: MatchFuzzy})
			}
		}
		res.Suggestions = n.suggest(fuzzy, quals)
		break
	}
	res.Matches = sortMatches(n.facts, res.Matches)
	return res
}

// spreadFactor weakens a name defined in many places: 1 up to three
// definitions, then 1/sqrt(n/3).
func spreadFactor(n int) float64 {
	if n <= 3 {
		return 1
	}
	return math.Sqrt(3 / float64(n))
}

// qualifies reports whether the qualifiers fit symbol s: the innermost
// qualifier names its container type, its package (name or last path
// element), its module path, or its file's base name.
func (n *Names) qualifies(s analyze.SymID, quals []string) bool {
	sym := &n.facts.Symbols[s]
	file := &n.facts.Files[sym.File]
	q := analyze.NormName(quals[len(quals)-1])
	if q == "" {
		return false
	}
	if analyze.NormName(sym.Container) == q {
		return true
	}
	if analyze.NormName(file.PkgName) == q {
		return true
	}
	pkg := file.Package
	if i := strings.LastIndexAny(pkg, "/:"); i >= 0 {
		pkg = pkg[i+1:]
	}
	if analyze.NormName(pkg) == q {
		return true
	}
	if q == "self" || q == "crate" || q == "super" {
		return true
	}
	base := strings.TrimSuffix(path.Base(file.Path), path.Ext(file.Path))
	return analyze.NormName(base) == q
}

// caseless reports whether name is a single lower-case word: no capital,
// no underscore, so nothing of its spelling says it is an identifier.
func caseless(name string) bool {
	for _, r := range name {
		if r == '_' || unicode.IsUpper(r) {
			return false
		}
	}
	return name != ""
}

// foreignStyle reports whether name is written in a style the language
// never uses for declarations: snake_case in Go.
func foreignStyle(name string, lang analyze.Lang) bool {
	return lang == analyze.LangGo && strings.Contains(strings.Trim(name, "_"), "_")
}

// isExternal reports whether the qualifiers name a package from outside
// the repository: the innermost qualifier (strings.Count) or the root of a
// Rust path (std::fs::read).
func (n *Names) isExternal(quals []string) bool {
	return n.external[analyze.NormName(quals[len(quals)-1])] || n.external[analyze.NormName(quals[0])]
}

// containerMatches seeds the type a qualifier names, when its member does
// not exist (a method about to be added, a misspelled method).
func (n *Names) containerMatches(quals []string) []Match {
	var out []Match
	key := analyze.NormName(quals[len(quals)-1])
	for _, s := range n.byNorm[key] {
		if n.facts.Symbols[s].Kind.IsType() {
			out = append(out, Match{Sym: s, Strength: 0.7, How: MatchContainer})
		}
	}
	return out
}

// fuzzy returns up to max normalised names close to key: within an edit
// distance of about a fifth of its length, or holding it as a prefix or
// suffix when it is long enough to mean something.
func (n *Names) fuzzy(key string, max int) []string {
	if key == "" {
		return nil
	}
	type cand struct {
		k string
		d int
	}
	var cs []cand
	limit := len(key) / 5
	if limit < 1 {
		limit = 1
	}
	for _, k := range n.norms {
		if abs(len(k)-len(key)) > limit && !(len(key) >= 5 && (strings.HasPrefix(k, key) || strings.HasSuffix(k, key))) {
			continue
		}
		d := editdist.Bytes(key, k, limit)
		if d <= limit {
			cs = append(cs, cand{k, d})
		} else if len(key) >= 5 && (strings.HasPrefix(k, key) || strings.HasSuffix(k, key)) {
			cs = append(cs, cand{k, limit + 1})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].k < cs[j].k
	})
	var out []string
	for i := 0; i < len(cs) && i < max; i++ {
		out = append(out, cs[i].k)
	}
	return out
}

// suggest renders the symbols behind fuzzy keys as qualified names, those
// fitting the qualifiers first.
func (n *Names) suggest(keys []string, quals []string) []string {
	var first, rest []string
	seen := map[string]bool{}
	for _, k := range keys {
		for _, s := range n.byNorm[k] {
			sym := &n.facts.Symbols[s]
			name := sym.QualName(n.facts.Files[sym.File].Lang)
			if seen[name] {
				continue
			}
			seen[name] = true
			if len(quals) > 0 && n.qualifies(s, quals) {
				first = append(first, name)
			} else {
				rest = append(rest, name)
			}
		}
	}
	out := append(first, rest...)
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}

// Lookup returns the symbols whose style-insensitive name is key.
func (n *Names) Lookup(key string) []analyze.SymID { return n.byNorm[analyze.NormName(key)] }

// Describe renders a resolution for stderr: which symbols were used, or
// that nothing matched and what the closest names are.
func (r Resolution) Describe(facts *analyze.Facts) string {
	if len(r.Matches) == 0 {
		if len(r.Suggestions) > 0 {
			return fmt.Sprintf("%s matches no symbol; did you mean %s?", r.Entity.Raw, strings.Join(r.Suggestions, ", "))
		}
		return fmt.Sprintf("%s matches no symbol", r.Entity.Raw)
	}
	var names []string
	for i, m := range r.Matches {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(r.Matches)-5))
			break
		}
		s := &facts.Symbols[m.Sym]
		f := &facts.Files[s.File]
		names = append(names, fmt.Sprintf("%s (%s:%d, %s)", s.QualName(f.Lang), f.Path, s.DeclLine, m.How))
	}
	if len(r.Matches) == 1 {
		return fmt.Sprintf("%s → %s", r.Entity.Raw, names[0])
	}
	return fmt.Sprintf("%s matches %d symbols, all used: %s", r.Entity.Raw, len(r.Matches), strings.Join(names, "; "))
}

func sortMatches(facts *analyze.Facts, ms []Match) []Match {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Strength != ms[j].Strength {
			return ms[i].Strength > ms[j].Strength
		}
		a, b := &facts.Symbols[ms[i].Sym], &facts.Symbols[ms[j].Sym]
		fa, fb := facts.Files[a.File].Path, facts.Files[b.File].Path
		if fa != fb {
			return fa < fb
		}
		return a.Start < b.Start
	})
	// A symbol may come twice (container and name); keep its best.
	seen := map[analyze.SymID]bool{}
	out := ms[:0]
	for _, m := range ms {
		if seen[m.Sym] {
			continue
		}
		seen[m.Sym] = true
		out = append(out, m)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
