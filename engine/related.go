package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
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

// AnalysedFile resolves a path as a caller wrote it (repository-relative,
// "./"-prefixed or absolute under the root) to a file the session
// analysed. The error says why there is none: the path leaves the root,
// names nothing, or names a file the analysis does not know; and it names
// the files called like it (FilesNamedLike).
func (s *Session) AnalysedFile(p string) (string, error) {
	rel, err := repoPath(s.Root, p)
	if err != nil {
		return "", errors.New(err.Error() + s.didYouMean(p))
	}
	if _, ok := s.Facts.FileByPath(rel); !ok {
		if _, err := os.Stat(filepath.Join(s.Root, filepath.FromSlash(rel))); errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist in the repository: give a path relative to the repository root%s", rel, s.didYouMean(rel))
		}
		return "", fmt.Errorf("%s is not a Go or Rust source file the analysis knows (only .go and .rs files are analysed, and vendored, hidden or oversized ones are skipped)%s", rel, s.didYouMean(rel))
	}
	return rel, nil
}

// didYouMean names repository files whose base name matches p's, for an
// error about a path that is not there.
func (s *Session) didYouMean(p string) string {
	if cands := s.FilesNamedLike(p); len(cands) > 0 {
		return "; did you mean " + strings.Join(cands, ", ") + "?"
	}
	return ""
}

// repoPath turns a path a caller wrote (repository-relative, "./"-prefixed
// or absolute under the root) into a repository path, refusing paths that
// leave the root.
func repoPath(root, p string) (string, error) {
	rel, err := analyze.ResolvePath(root, p)
	if err != nil {
		if errors.Is(err, analyze.ErrOutsideRoot) {
			return "", fmt.Errorf("%s is outside the repository %s: give a path relative to the repository root", p, root)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist in the repository: give a path relative to the repository root", p)
		}
		return "", fmt.Errorf("%s: %v", p, err)
	}
	return rel, nil
}
