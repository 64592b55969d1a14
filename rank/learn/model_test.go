package learn

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// stump is a two-tree model small enough to evaluate by hand:
//
//	tree 0: a < 0.5 ? (b < 2 ? 1 : 3) : -1     node values: root 0.5, left 2
//	tree 1: b < 1 ? 0.25 : -0.25                root 0
func stump() File {
	return File{
		Version: 1, Kind: KindTrees, Features: []string{"a", "b"}, Bias: 0.1, CalibA: 1, CalibB: 0,
		Trees: []Tree{
			{Feature: []int{0, 1, -1, -1, -1}, Threshold: []float64{0.5, 2, 0, 0, 0},
				Left: []int{1, 3, 0, 0, 0}, Right: []int{2, 4, 0, 0, 0}, Value: []float64{0.5, 2, -1, 1, 3}},
			{Feature: []int{1, -1, -1}, Threshold: []float64{1, 0, 0},
				Left: []int{1, 0, 0}, Right: []int{2, 0, 0}, Value: []float64{0, 0.25, -0.25}},
		},
	}
}

func TestTreesMarginAndContributions(t *testing.T) {
	m, err := New(stump())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		x      []float64
		margin float64
		contA  float64
		contB  float64
	}{
		// a < 0.5, b < 2 → 1; b < 1 → 0.25. Tree 0: a's split 0.5→2 (+1.5), b's split 2→1 (-1); tree 1: b 0→0.25.
		{[]float64{0, 0}, 0.1 + 1 + 0.25, 1.5, -1 + 0.25},
		// a ≥ 0.5 → -1; b ≥ 1 → -0.25.
		{[]float64{0.5, 1}, 0.1 - 1 - 0.25, -1.5, -0.25},
		// b exactly at a threshold goes right.
		{[]float64{0.1, 2}, 0.1 + 3 - 0.25, 1.5, 1 - 0.25},
	}
	for _, tt := range tests {
		if got := m.Margin(tt.x); math.Abs(got-tt.margin) > 1e-12 {
			t.Errorf("Margin(%v) = %v, want %v", tt.x, got, tt.margin)
		}
		out := make([]float64, 2)
		base := m.Contributions(tt.x, out)
		if math.Abs(out[0]-tt.contA) > 1e-12 || math.Abs(out[1]-tt.contB) > 1e-12 {
			t.Errorf("Contributions(%v) = %v, want [%v %v]", tt.x, out, tt.contA, tt.contB)
		}
		if sum := base + out[0] + out[1]; math.Abs(sum-tt.margin) > 1e-12 {
			t.Errorf("base %v + contributions %v = %v, want the margin %v", base, out, sum, tt.margin)
		}
	}
}

func TestLinear(t *testing.T) {
	m, err := New(File{Version: 1, Kind: KindLinear, Features: []string{"a", "b"}, Bias: 1, CalibA: 2, CalibB: -1,
		Weights: []float64{2, -1}, Mean: []float64{1, 0}, Scale: []float64{2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{3, 4}
	want := 1 + 2*(3-1)/2.0 - 4
	if got := m.Margin(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("Margin = %v, want %v", got, want)
	}
	out := make([]float64, 2)
	if base := m.Contributions(x, out); base != 1 || out[0] != 2 || out[1] != -4 {
		t.Errorf("Contributions = %v, %v; want 1, [2 -4]", base, out)
	}
	if p, want := m.Probability(0.5), 1/(1+math.Exp(0)); math.Abs(p-want) > 1e-12 {
		t.Errorf("Probability(0.5) = %v, want %v", p, want)
	}
}

func TestBind(t *testing.T) {
	m, err := New(stump())
	if err != nil {
		t.Fatal(err)
	}
	// The caller computes more features, in another order.
	b, err := m.Bind([]string{"z", "b", "a"})
	if err != nil {
		t.Fatal(err)
	}
	var s Scratch
	x := []float64{42, 0, 0}
	if got, want := b.Margin(x, &s), m.Margin([]float64{0, 0}); got != want {
		t.Errorf("bound margin %v, want %v", got, want)
	}
	out := make([]float64, 3)
	b.Contributions(x, out, &s)
	if out[0] != 0 || out[1] != -0.75 || out[2] != 1.5 {
		t.Errorf("bound contributions %v, want [0 -0.75 1.5]", out)
	}
	if _, err := m.Bind([]string{"a"}); err == nil || !strings.Contains(err.Error(), "b") {
		t.Errorf("binding without feature b: %v, want an error naming it", err)
	}
}

func TestParseRejects(t *testing.T) {
	mod := func(f func(*File)) []byte {
		m := stump()
		f(&m)
		b, _ := json.Marshal(m)
		return b
	}
	tests := map[string][]byte{
		"not json":         []byte("{"),
		"version":          mod(func(m *File) { m.Version = 2 }),
		"kind":             mod(func(m *File) { m.Kind = "forest" }),
		"no features":      mod(func(m *File) { m.Features = nil }),
		"repeated feature": mod(func(m *File) { m.Features = []string{"a", "a"} }),
		"feature range":    mod(func(m *File) { m.Trees[0].Feature[0] = 2 }),
		"child before":     mod(func(m *File) { m.Trees[0].Left[1] = 1 }),
		"child out":        mod(func(m *File) { m.Trees[0].Right[0] = 9 }),
		"ragged":           mod(func(m *File) { m.Trees[1].Value = m.Trees[1].Value[:2] }),
		"no trees":         mod(func(m *File) { m.Trees = nil }),
		"linear with trees": mod(func(m *File) {
			m.Kind = KindLinear
			m.Weights, m.Mean, m.Scale = []float64{1, 1}, []float64{0, 0}, []float64{1, 1}
		}),
		"zero scale": func() []byte {
			b, _ := json.Marshal(File{Version: 1, Kind: KindLinear, Features: []string{"a"}, Weights: []float64{1}, Mean: []float64{0}, Scale: []float64{0}})
			return b
		}(),
		"infinite": []byte(`{"version":1,"kind":"linear","features":["a"],"weights":[1e999],"mean":[0],"scale":[1]}`),
	}
	for name, data := range tests {
		if _, err := Parse(data); !errors.Is(err, ErrModel) {
			t.Errorf("%s: Parse = %v, want ErrModel", name, err)
		}
	}
}

func TestDefaultParses(t *testing.T) {
	if m, err := Question(); err != nil {
		t.Fatalf("the shipped question model does not parse: %v", err)
	} else if m != nil && len(m.Features()) == 0 {
		t.Error("the shipped question model reads no feature")
	}
	m, err := Default()
	if err != nil {
		t.Fatalf("the shipped model does not parse: %v", err)
	}
	if m == nil {
		t.Skip("this build ships no model")
	}
	x := make([]float64, len(m.Features()))
	if v := m.Margin(x); math.IsNaN(v) || math.IsInf(v, 0) {
		t.Errorf("margin of a zero vector = %v", v)
	}
}

func FuzzParse(f *testing.F) {
	b, _ := json.Marshal(stump())
	f.Add(b)
	f.Add([]byte(`{"version":1,"kind":"linear","features":["a"],"weights":[1],"mean":[0],"scale":[1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		// A model that parses evaluates any vector without panicking
		// and its contributions add up to its margin.
		x := make([]float64, len(m.Features()))
		for i := range x {
			x[i] = float64(i%3) - 0.5
		}
		margin := m.Margin(x)
		out := make([]float64, len(x))
		sum := m.Contributions(x, out)
		for _, v := range out {
			sum += v
		}
		if !(math.Abs(sum-margin) <= 1e-6*math.Max(1, math.Abs(margin))) && !math.IsInf(margin, 0) && !math.IsNaN(margin) {
			t.Errorf("contributions add up to %v, margin %v", sum, margin)
		}
	})
}

// TestShippedChecks: the trainer records candidates with the margins it
// computed (meta.checks); the Go evaluator must agree with it, for every
// model the build ships.
func TestShippedChecks(t *testing.T) {
	for _, c := range []struct {
		name     string
		load     func() (*Model, error)
		required bool
	}{{"default.json", Default, true}, {"question.json", Question, false}} {
		m, err := c.load()
		if err != nil || (m == nil && c.required) {
			t.Fatalf("no shipped model %s (err %v): rank/learn/%s must hold one (benchmarks/README.md says how to train it)", c.name, err, c.name)
		}
		if m == nil {
			continue
		}
		checks, _ := m.Meta()["checks"].([]any)
		if len(checks) == 0 {
			t.Fatalf("the shipped model %s records no checks", c.name)
		}
		for i, ch := range checks {
			ch := ch.(map[string]any)
			var x []float64
			for _, v := range ch["x"].([]any) {
				x = append(x, v.(float64))
			}
			want := ch["margin"].(float64)
			if got := m.Margin(x); math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("%s check %d: margin %v, the trainer computed %v", c.name, i, got, want)
			}
		}
	}
}
