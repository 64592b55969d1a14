// Package layering holds no code. Its test checks the shape the code
// keeps: dependencies point one way (the doors under cmd → engine →
// expand → rank and graph → analyze → index), and the packages that say
// they build without cgo (graph, expand, rank, analyze/rust/resolve)
// reach no package that needs it.
package layering
