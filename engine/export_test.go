package engine

import (
	"testing"

	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// SetURLOptionsForTest makes every query of the test fetch @url
// references with the options opt returns (a resolver that plays DNS, a
// cache directory of the test's own), until the test ends. Tests that
// call it must not run in parallel with other queries.
func SetURLOptionsForTest(t testing.TB, opt func() urlfetch.Options) {
	old := urlOptions
	urlOptions = opt
	t.Cleanup(func() { urlOptions = old })
}
