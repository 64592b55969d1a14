package bundle

import "context"

// Prime prepares every file of req as Build would (reads it, renders
// each of its rungs in req's format and counts them) and keeps nothing.
// What it warms are the caches that outlive a call: the counter's (a
// tokenize.Memo's whole texts, an exact counter's chunks) and the
// skeletons', import lines' and escaped texts'; lookups in the
// skeletons' memo count in SkeletonMemoStats only when queries make
// them. A server primes the files of a fresh load in its idle time, so
// that a query's first sight of a file costs about what its second
// does: a section that frames a primed text otherwise (another score,
// other reasons) finds the text's count with one lookup
// (tokenize.CountAround). The budget only bounds which texts are counted,
// as in Build: one too long to ever fit is not. Prime fails on a bad
// request, and with ctx's error when cancelled.
func Prime(ctx context.Context, req Request) error {
	b, err := newBuilder(req)
	if err != nil {
		return err
	}
	b.priming = true
	return b.prepare(ctx)
}
