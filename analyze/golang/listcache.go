package golang

import (
	"golang.org/x/tools/go/packages"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang/typecache"
)

// listCached returns the unit's listing: go list's answer from an earlier
// load while no Go file's header changed (typecache.Listings), else a
// fresh one. Listings are reused only with Options.Cache and ListSalt.
func (l *loader) listCached(u *unit) ([]*packages.Package, []analyze.Problem, error) {
	if l.opt.Cache == nil || l.opt.ListSalt == "" {
		return l.list(u)
	}
	if l.listings == nil {
		l.listings = &typecache.Listings{Cache: l.opt.Cache, Root: l.root, Analysed: l.allowed, Overlay: l.overlay,
			FileHash: l.fileHash, RelOf: l.relOf, Memo: l.opt.Results.listingMemo()}
	}
	key := typecache.ListKey(l.cacheSalt(), l.opt.ListSalt, u.dir, l.opt.SkipTests, u.patterns, u.env, l.overlay)
	ls, reused, err := l.listings.Get(l.ctx, key, func() (typecache.Listing, error) {
		roots, probs, err := l.list(u)
		return typecache.Listing{Roots: roots, Problems: probs}, err
	})
	if reused {
		l.opt.logf("golang: go list of %s reused: no Go file's header changed", u.dir)
	}
	return ls.Roots, ls.Problems, err
}
