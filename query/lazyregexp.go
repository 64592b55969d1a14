package query

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles a package-level expression on first use rather than
// when the program starts: the package has three dozen, and compiling them
// all cost every ctxexpand process 11 to 18 ms before main, a client of
// the resident server included, which never analyses a query.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
