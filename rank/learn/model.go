// Package learn owns the learned ranking models of ctxexpand: their file
// format, the check that a model file is sound, and their evaluation at
// query time, with each feature's contribution to a score.
//
// # Models
//
// A model maps a feature vector (the features package expand computes per
// candidate file, named in the file) to a margin, higher for files more
// likely to be the ones a change touches. Two kinds are supported:
//
//   - linear: margin = bias + Σ wᵢ·(xᵢ − meanᵢ)/scaleᵢ; feature i
//     contributes wᵢ·(xᵢ − meanᵢ)/scaleᵢ;
//   - trees: an ensemble of binary regression trees (gradient boosting
//     with a ranking objective, LambdaMART); margin = bias + Σ leaf values.
//     Contributions follow each tree's decision path: a split on feature i
//     is credited with the change in the expected value of the subtree it
//     leads to (Saabas' path attribution), so the contributions add up to
//     the margin exactly.
//
// Calibration turns a margin into the probability that the file is one
// the change touches, σ(a·margin + b) (Platt scaling, fitted on the
// training split), which is the file's score: the bundle weighs files by
// it.
//
// # The file format
//
// A model is one JSON object (see [File]); the trainer in benchmarks/learn
// writes it. [Parse] checks everything before a model is used — known
// kind, finite numbers, feature indexes in range, trees whose children
// come after their parents — so a damaged file is an error, never a
// panic or a loop. Our own format rather than a library's: it carries the
// feature names (bound by name at load, see [Model.Bind]), the expected
// value of every tree node (for contributions) and the calibration, and its
// evaluator is a hundred lines.
package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Version is the format version this package reads.
const Version = 1

// Model kinds.
const (
	KindLinear = "linear"
	KindTrees  = "trees"
)

// File is the JSON form of a model.
type File struct {
	Version  int      `json:"version"`
	Kind     string   `json:"kind"`
	Features []string `json:"features"`
	// Bias is added to every margin.
	Bias float64 `json:"bias"`
	// CalibA and CalibB map a margin to a probability: σ(a·m + b).
	CalibA float64 `json:"calib_a"`
	CalibB float64 `json:"calib_b"`
	// Linear models.
	Weights []float64 `json:"weights,omitempty"`
	Mean    []float64 `json:"mean,omitempty"`
	Scale   []float64 `json:"scale,omitempty"`
	// Tree ensembles.
	Trees []Tree `json:"trees,omitempty"`
	// Meta says how the model was trained (free-form, for people).
	Meta map[string]any `json:"meta,omitempty"`
}

// Tree is one regression tree: node 0 is the root. A node with Feature
// −1 is a leaf worth Value; any other node sends x to Left when
// x[Feature] < Threshold, else to Right, both compared as 32-bit floats
// (the precision the trainer saw the features at). Value of an inner node is the
// expected value of its subtree over the training data (for
// contributions). Children always have larger indexes than their parent.
type Tree struct {
	Feature   []int     `json:"f"`
	Threshold []float64 `json:"t"`
	Left      []int     `json:"l"`
	Right     []int     `json:"r"`
	Value     []float64 `json:"v"`
}

// ErrModel marks a model file that cannot be used.
var ErrModel = errors.New("invalid model")

// Model is a parsed, checked model. It is safe for concurrent use.
type Model struct {
	file File
	// The nodes of all trees in one array, 16 bytes each (what a
	// traversal reads), children indexed absolutely; roots lists each
	// tree's root and values the nodes' values, by the same index.
	nodes  []node
	values []float64
	roots  []int32
}

type node struct {
	feature     int32 // -1 for a leaf
	threshold   float32
	left, right int32
}

// Parse decodes and checks a model file.
func Parse(data []byte) (*Model, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	return New(f)
}

// New checks a model and prepares it for evaluation.
func New(f File) (*Model, error) {
	bad := func(format string, args ...any) (*Model, error) {
		return nil, fmt.Errorf("%w: %s", ErrModel, fmt.Sprintf(format, args...))
	}
	if f.Version != Version {
		return bad("format version %d, this build reads %d", f.Version, Version)
	}
	nf := len(f.Features)
	if nf == 0 {
		return bad("no features")
	}
	seen := map[string]bool{}
	for _, n := range f.Features {
		if n == "" || seen[n] {
			return bad("feature name %q is empty or repeated", n)
		}
		seen[n] = true
	}
	if !finite(f.Bias, f.CalibA, f.CalibB) {
		return bad("bias or calibration is not a finite number")
	}
	m := &Model{file: f}
	switch f.Kind {
	case KindLinear:
		if len(f.Weights) != nf || len(f.Mean) != nf || len(f.Scale) != nf {
			return bad("a linear model needs one weight, mean and scale per feature")
		}
		if len(f.Trees) > 0 {
			return bad("a linear model has no trees")
		}
		for i := range f.Weights {
			if !finite(f.Weights[i], f.Mean[i], f.Scale[i]) || f.Scale[i] <= 0 {
				return bad("feature %s: weight, mean or scale is not a finite number (scale must be positive)", f.Features[i])
			}
		}
	case KindTrees:
		if len(f.Weights)+len(f.Mean)+len(f.Scale) > 0 {
			return bad("a tree model has no weights")
		}
		if len(f.Trees) == 0 {
			return bad("a tree model without trees")
		}
		for ti, t := range f.Trees {
			if err := m.addTree(t, nf); err != nil {
				return bad("tree %d: %v", ti, err)
			}
		}
	default:
		return bad("unknown kind %q (want %s or %s)", f.Kind, KindLinear, KindTrees)
	}
	return m, nil
}

// addTree checks a tree and appends its nodes.
func (m *Model) addTree(t Tree, nf int) error {
	n := len(t.Feature)
	if n == 0 {
		return errors.New("no nodes")
	}
	if len(t.Threshold) != n || len(t.Left) != n || len(t.Right) != n || len(t.Value) != n {
		return errors.New("node arrays of different lengths")
	}
	off := len(m.nodes)
	if n > math.MaxInt32-off {
		return errors.New("too many nodes")
	}
	m.roots = append(m.roots, int32(off))
	for i := range n {
		f := t.Feature[i]
		if !finite(t.Value[i]) {
			return fmt.Errorf("node %d: value is not a finite number", i)
		}
		m.values = append(m.values, t.Value[i])
		if f == -1 {
			m.nodes = append(m.nodes, node{feature: -1})
			continue
		}
		if f < 0 || f >= nf {
			return fmt.Errorf("node %d: feature %d out of range", i, f)
		}
		l, r := t.Left[i], t.Right[i]
		if l <= i || r <= i || l >= n || r >= n {
			return fmt.Errorf("node %d: children %d and %d must follow it", i, l, r)
		}
		if math.IsNaN(t.Threshold[i]) {
			return fmt.Errorf("node %d: threshold is not a number", i)
		}
		m.nodes = append(m.nodes, node{feature: int32(f), threshold: float32(t.Threshold[i]), left: int32(off + l), right: int32(off + r)})
	}
	return nil
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Kind is the model's kind.
func (m *Model) Kind() string { return m.file.Kind }

// Features are the names of the model's features, in its vector order.
func (m *Model) Features() []string { return m.file.Features }

// Meta is what the trainer recorded about the model.
func (m *Model) Meta() map[string]any { return m.file.Meta }

// Margin scores a feature vector in the model's order.
func (m *Model) Margin(x []float64) float64 {
	s := m.file.Bias
	switch m.file.Kind {
	case KindLinear:
		f := &m.file
		for i, w := range f.Weights {
			s += w * (x[i] - f.Mean[i]) / f.Scale[i]
		}
	case KindTrees:
		nodes := m.nodes
		for _, i := range m.roots {
			for {
				n := &nodes[i]
				if n.feature < 0 {
					break
				}
				if float32(x[n.feature]) < n.threshold {
					i = n.left
				} else {
					i = n.right
				}
			}
			s += m.values[i]
		}
	}
	return s
}

// Contributions fills out (one per feature, in the model's order) with
// each feature's share of the margin of x and returns the rest, the
// part no feature explains (the bias, plus each tree's expected value):
// base + Σ out = Margin(x).
func (m *Model) Contributions(x []float64, out []float64) (base float64) {
	clear(out)
	base = m.file.Bias
	switch m.file.Kind {
	case KindLinear:
		f := &m.file
		for i, w := range f.Weights {
			out[i] = w * (x[i] - f.Mean[i]) / f.Scale[i]
		}
	case KindTrees:
		nodes, values := m.nodes, m.values
		for _, i := range m.roots {
			base += values[i]
			for {
				n := &nodes[i]
				if n.feature < 0 {
					break
				}
				next := n.right
				if float32(x[n.feature]) < n.threshold {
					next = n.left
				}
				out[n.feature] += values[next] - values[i]
				i = next
			}
		}
	}
	return base
}

// Probability turns a margin into the calibrated probability that the
// file is one the change touches.
func (m *Model) Probability(margin float64) float64 {
	return 1 / (1 + math.Exp(-(m.file.CalibA*margin + m.file.CalibB)))
}
