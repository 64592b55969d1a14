package expand

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/graph"
	"github.com/ctxexpand/ctxexpand/query"
)

// Strategy is a way of expanding from seeds.
type Strategy struct {
	Name string
	Doc  string
	// Depth is the default number of steps from a seed.
	Depth int
	// Weights of each edge kind, forward and backward.
	Weights graph.Weights
	// FixWeights, when not zero, replace Weights when the task is a fix
	// (query.ActionDebug): the order in which an engineer reads around the
	// code to fix, which differs from the order for a change of shape.
	FixWeights graph.Weights
	// LexicalSeeds is how many of the best lexically matching symbols seed
	// the walk (in addition to named seeds); LexicalSeedScale scales their
	// strength below that of a named seed.
	LexicalSeeds     int
	LexicalSeedScale float64
	// EntryPoints seeds the walk from main functions and cmd/ files.
	EntryPoints bool
}

// weightsFor returns the weights of the walk for the plan's task.
func (s Strategy) weightsFor(plan *query.Plan) graph.Weights {
	if plan.Action == query.ActionDebug && s.FixWeights != (graph.Weights{}) {
		return s.FixWeights
	}
	return s.Weights
}

func weights(set func(w *graph.Weights)) graph.Weights {
	var w graph.Weights
	set(&w)
	return w
}

func both(w *graph.Weights, k graph.Kind, fwd, back float64) {
	w[k][graph.Forward] = fwd
	w[k][graph.Backward] = back
}

// Focused follows the named symbols to what they call, what calls them,
// the types they use and belong to, the interfaces they implement and the
// implementations of interfaces they name, and their tests — shallow.
//
// For a fix it reads around the function as an engineer does: what it
// calls and the types it uses first (a step forward along calls 0.8,
// references 0.7), then its tests (tested by 0.7, which the demotion of
// tests in a fix brings to 0.56), then its callers (called by 0.5,
// referenced by 0.45): a caller shows how the function is used, but a fix
// is more often in the function and what it relies on. Other tasks weigh
// callers and tests higher (called by 0.7, tested by 0.8): adding a field
// or a parameter changes the code that uses it.
var Focused = Strategy{
	Name:             "focused",
	Doc:              "the named symbols, their callees, callers, types, implementations and tests (shallow)",
	Depth:            2,
	LexicalSeeds:     5,
	LexicalSeedScale: 0.5,
	Weights:          focusedWeights(0.7, 0.8),
	FixWeights:       focusedWeights(0.5, 0.7),
}

// focusedWeights are Focused's weights with the given weights of a step
// to a caller and to a test.
func focusedWeights(calledBy, testedBy float64) graph.Weights {
	return weights(func(w *graph.Weights) {
		both(w, graph.Calls, 0.8, calledBy)
		both(w, graph.References, 0.7, 0.45)
		both(w, graph.MethodOf, 0.7, 0.5)
		both(w, graph.Implements, 0.7, 0.7)
		both(w, graph.Embeds, 0.6, 0.4)
		both(w, graph.Tests, 0.5, testedBy)
		both(w, graph.Field, 0.4, 0.6)
		both(w, graph.Macro, 0.5, 0.3)
		both(w, graph.Contains, 0.5, 0)
	})
}

// Broad takes every symbol matching the query's concepts and one hop
// around each along any edge.
var Broad = Strategy{
	Name:             "broad",
	Doc:              "everything matching the query's concepts, then one hop along any edge",
	Depth:            1,
	LexicalSeeds:     60,
	LexicalSeedScale: 0.7,
	Weights: weights(func(w *graph.Weights) {
		for k := graph.Kind(1); int(k) < graph.NumKinds; k++ {
			both(w, k, 0.5, 0.4)
		}
		both(w, graph.Contains, 0.4, 0)
		both(w, graph.Imports, 0.3, 0.2)
	}),
}

// EntryPoint starts from main functions and cmd/ packages and walks down
// imports and calls.
var EntryPoint = Strategy{
	Name:             "entrypoint",
	Doc:              "from main packages and cmd/ downward along calls and imports",
	Depth:            3,
	EntryPoints:      true,
	LexicalSeeds:     10,
	LexicalSeedScale: 0.5,
	Weights: weights(func(w *graph.Weights) {
		both(w, graph.Calls, 0.8, 0.3)
		both(w, graph.References, 0.5, 0.2)
		both(w, graph.MethodOf, 0.5, 0.3)
		both(w, graph.Implements, 0.4, 0.5)
		both(w, graph.Contains, 0.6, 0)
		both(w, graph.Imports, 0.6, 0)
	}),
}

// Semantic ranks by lexical similarity between the query and
// identifier-split names, doc comments and signatures, smoothed by one
// light hop over calls and references.
var Semantic = Strategy{
	Name:             "semantic",
	Doc:              "lexical similarity (BM25F over identifier-split names, docs, signatures) with one light hop",
	Depth:            1,
	LexicalSeeds:     25,
	LexicalSeedScale: 0.8,
	Weights: weights(func(w *graph.Weights) {
		both(w, graph.Calls, 0.45, 0.4)
		both(w, graph.References, 0.35, 0.25)
		both(w, graph.MethodOf, 0.4, 0.3)
		both(w, graph.Implements, 0.4, 0.4)
		both(w, graph.Tests, 0.2, 0.4)
	}),
}

// Impact follows changed code to what it affects: its callers (and theirs),
// implementations of changed interfaces and traits, the types it belongs
// to and the tests that exercise it — the neighbourhood a reviewer of a
// diff needs. It does not seed from lexical matches.
var Impact = Strategy{
	Name:  "impact",
	Doc:   "from changed code to its callers, implementations, owning types and tests (diff review)",
	Depth: 2,
	Weights: weights(func(w *graph.Weights) {
		both(w, graph.Calls, 0.55, 0.85)
		both(w, graph.References, 0.45, 0.6)
		both(w, graph.MethodOf, 0.6, 0.4)
		both(w, graph.Implements, 0.6, 0.8)
		both(w, graph.Embeds, 0.4, 0.6)
		both(w, graph.Tests, 0.3, 0.9)
		both(w, graph.Field, 0.3, 0.6)
		both(w, graph.Macro, 0.3, 0.6)
		both(w, graph.Contains, 0.3, 0)
	}),
}

// Strategies lists every strategy by name.
var Strategies = map[string]Strategy{
	Focused.Name:    Focused,
	Broad.Name:      Broad,
	EntryPoint.Name: EntryPoint,
	Semantic.Name:   Semantic,
	Impact.Name:     Impact,
}

// Names lists the strategy names, sorted, for help text and errors.
func Names() []string {
	var ns []string
	for n := range Strategies {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// ErrUnknownStrategy is wrapped by Lookup's error.
var ErrUnknownStrategy = fmt.Errorf("unknown strategy")

// Lookup resolves a strategy spec: one name, or several joined with "+"
// ("focused+semantic"). "auto" and "" resolve to the plan's
// recommendation, which the caller passes as auto.
func Lookup(spec, auto string) ([]Strategy, error) {
	spec = strings.ToLower(strings.TrimSpace(spec))
	if spec == "" || spec == "auto" {
		spec = auto
		if spec == "" {
			spec = "focused+semantic"
		}
	}
	var out []Strategy
	seen := map[string]bool{}
	for _, n := range strings.Split(spec, "+") {
		n = strings.TrimSpace(n)
		s, ok := Strategies[n]
		if !ok {
			return nil, fmt.Errorf("%w %q: choose auto, %s, or several joined with +", ErrUnknownStrategy, n, strings.Join(Names(), ", "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// stepWords say in words what a step along an edge means.
func stepWords(k graph.Kind, d graph.Dir) string {
	fwd, back := "", ""
	switch k {
	case graph.Calls:
		fwd, back = "calls", "called by"
	case graph.References:
		fwd, back = "uses", "used by"
	case graph.MethodOf:
		fwd, back = "method of", "has method"
	case graph.Implements:
		fwd, back = "implements", "implemented by"
	case graph.Embeds:
		fwd, back = "embeds", "embedded in"
	case graph.Tests:
		fwd, back = "tests", "tested by"
	case graph.Field:
		fwd, back = "has field", "field of"
	case graph.Macro:
		fwd, back = "invokes macro", "macro used by"
	case graph.Contains:
		fwd, back = "contains", "in"
	case graph.Imports:
		fwd, back = "imports", "imported by"
	default:
		fwd, back = k.String(), k.String()+" (reverse)"
	}
	if d == graph.Backward {
		return back
	}
	return fwd
}

// MaxDepth is the deepest walk a request may ask for; depth 0 lets the
// strategy and the plan choose.
const MaxDepth = 10

// CheckDepth returns the error every door reports for a depth outside 0
// to MaxDepth.
func CheckDepth(depth int) error {
	if depth < 0 || depth > MaxDepth {
		return fmt.Errorf("depth must be between 0 and %d, got %d", MaxDepth, depth)
	}
	return nil
}
