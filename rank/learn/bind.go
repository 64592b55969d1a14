package learn

import (
	"fmt"
	"strings"
)

// Bound is a model whose features are bound to a caller's feature
// vector by name: the caller computes its own features in its own order,
// and the model reads the ones it was trained on. Features the model does
// not know are ignored; a feature the model needs that the caller lacks is
// an error at Bind.
type Bound struct {
	model *Model
	idx   []int // idx[i]: the caller's index of the model's feature i
	n     int   // the caller's vector length
}

// Bind binds the model to the caller's feature names.
func (m *Model) Bind(names []string) (*Bound, error) {
	pos := make(map[string]int, len(names))
	for i, n := range names {
		pos[n] = i
	}
	b := &Bound{model: m, idx: make([]int, len(m.file.Features)), n: len(names)}
	var missing []string
	for i, n := range m.file.Features {
		j, ok := pos[n]
		if !ok {
			missing = append(missing, n)
			continue
		}
		b.idx[i] = j
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: the model needs features this build does not compute: %s", ErrModel, strings.Join(missing, ", "))
	}
	return b, nil
}

// Model is the bound model.
func (b *Bound) Model() *Model { return b.model }

// gather puts the caller's x into the model's order in buf.
func (b *Bound) gather(x, buf []float64) []float64 {
	buf = buf[:0]
	for _, j := range b.idx {
		buf = append(buf, x[j])
	}
	return buf
}

// Scratch is reusable memory for one goroutine's calls of a Bound.
type Scratch struct{ x, c []float64 }

// Margin scores x, a vector in the caller's order.
func (b *Bound) Margin(x []float64, s *Scratch) float64 {
	s.x = b.gather(x, s.x)
	return b.model.Margin(s.x)
}

// Contributions fills out (in the caller's order, len(names)) with each
// feature's share of the margin of x and returns the unexplained base.
func (b *Bound) Contributions(x, out []float64, s *Scratch) float64 {
	s.x = b.gather(x, s.x)
	if cap(s.c) < len(s.x) {
		s.c = make([]float64, len(s.x))
	}
	s.c = s.c[:len(s.x)]
	base := b.model.Contributions(s.x, s.c)
	clear(out)
	for i, j := range b.idx {
		out[j] += s.c[i]
	}
	return base
}
