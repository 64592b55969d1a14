package engine

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/expand"
)

// RelatedStrategy is the walk [RelatedRequest] takes by default: from the
// file to what its symbols call and use, what calls and uses them, their
// types, implementations and tests: the neighbourhood of the file in
// both directions.
const RelatedStrategy = "focused"

// RelatedRequest is the request that ranks the neighbours of the
// repository file rel: the file is the only seed (an explicit reference,
// as @rel would be) and there is no query text, so that graph evidence
// alone decides. Strategy "" or "auto" is RelatedStrategy; depth 0 is the
// strategy's. The file ranks first itself, so the request asks for one
// file more than limit; [Session.Related] leaves it out.
func RelatedRequest(root, rel, strategy string, depth, limit int) Request {
	if strategy = strings.TrimSpace(strategy); strategy == "" || strategy == "auto" {
		strategy = RelatedStrategy
	}
	return Request{Root: root, Strategy: strategy, Depth: depth, MaxFiles: limit + 1,
		Explicit: []expand.Explicit{{Path: rel, Reason: "the file asked about"}}, NoNetwork: true}
}

// Related answers req, a [RelatedRequest] for rel: the files ranked near
// rel, best first, rel itself left out, at most limit of them, and how
// many files had any connection to it.
func (s *Session) Related(ctx context.Context, req Request, rel string, limit int) (files []expand.File, considered int, err error) {
	out, err := s.Query(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	for _, f := range out.Result.Files {
		if f.Path == rel {
			continue
		}
		if len(files) == limit {
			break
		}
		files = append(files, f)
	}
	return files, max(out.Result.Considered-1, 0), nil
}

// FilesNamedLike names up to five of the session's files whose base name
// is p's, in path order: what to suggest for a path that is not there.
func (s *Session) FilesNamedLike(p string) []string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	var cands []string
	for _, f := range s.Facts.Files {
		if path.Base(f.Path) == base {
			cands = append(cands, f.Path)
		}
	}
	sort.Strings(cands)
	if len(cands) > 5 {
		cands = cands[:5]
	}
	return cands
}
