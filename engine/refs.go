package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/refs"
	"github.com/ctxexpand/ctxexpand/urlfetch"
)

// Extra is explicit content that is not a ranked repository file: a
// fetched page, search results, a file an @reference named that is not Go
// or Rust source, or the placeholder of a reference that failed.
type Extra struct {
	Kind    string `json:"kind"`  // "url", "grep", "search", "file", "failed"
	Title   string `json:"title"` // the reference as written
	Content string `json:"content"`
	Lang    string `json:"lang,omitempty"`
}

// urlOptions gives the options of the fetcher a query's @url references
// go through (Disabled is set from the request). Only tests replace it
// (export_test.go), to answer DNS and let the fetch reach a local server;
// the fetcher's safety rests on the zero Options.
var urlOptions = func() urlfetch.Options { return urlfetch.Options{} }

// resolved is what the @references of a query came to.
type resolved struct {
	explicit []expand.Explicit
	extras   []Extra
	summary  string
	results  []refs.Resolved
}

// resolveRefs resolves the plan's @references (symbols are left to
// ranking) against the repository. Failures become placeholders; nothing
// here fails the run.
func (s *Session) resolveRefs(ctx context.Context, plan *query.Plan, req Request) resolved {
	var out resolved
	if len(plan.Refs) == 0 {
		return out
	}
	list := func() []string {
		files, _, _ := analyze.ListFiles(ctx, s.Root, analyze.WalkOptions{AllFiles: true, Ignore: s.ignore})
		return files
	}
	uo := urlOptions()
	uo.Disabled = uo.Disabled || req.NoNetwork
	fetcher := urlfetch.New(uo)
	out.results = refs.ResolveListed(ctx, s.Root, list, plan.Refs, refs.Options{Fetcher: fetcher, Ignore: s.ignore})
	out.summary = refs.Summary(out.results)
	for _, r := range out.results {
		if r.Status == refs.StatusDeferred {
			continue // @Symbol: resolved by ranking
		}
		if r.Status != refs.StatusOK {
			msg := fmt.Sprintf("%s could not be used: %v", r.Ref.Raw, r.Err)
			if len(r.Suggestions) > 0 {
				msg += "; did you mean " + strings.Join(r.Suggestions, ", ") + "?"
			}
			out.extras = append(out.extras, Extra{Kind: "failed", Title: r.Ref.Raw, Content: msg})
			continue
		}
		switch r.Ref.Kind {
		case query.RefFile:
			paths := r.Files
			if r.Path != "" {
				paths = []string{r.Path}
			}
			for _, p := range paths {
				if _, ok := s.Facts.FileByPath(p); !ok {
					// Not analysed source (a README, a config file): shown as is.
					if data, err := s.content.ByPath(p); err == nil {
						out.extras = append(out.extras, Extra{Kind: "file", Title: r.Ref.Raw + " (" + p + ")", Content: sliceLines(string(data), r.Range.Start, r.Range.End), Lang: langTag(p)})
					}
					continue
				}
				out.explicit = append(out.explicit, expand.Explicit{Path: p, StartLine: r.Range.Start, EndLine: r.Range.End, Reason: r.Ref.Raw})
			}
		case query.RefSearch, query.RefGrep:
			var b strings.Builder
			for _, m := range r.Matches {
				fmt.Fprintf(&b, "%s:%d: %s\n", m.Path, m.Line, m.Text)
				if _, ok := s.Facts.FileByPath(m.Path); ok {
					end := m.ContextStart + len(m.Context) - 1
					if end < m.Line {
						end = m.Line
					}
					start := m.ContextStart
					if start <= 0 {
						start = m.Line
					}
					out.explicit = append(out.explicit, expand.Explicit{Path: m.Path, StartLine: start, EndLine: end, Reason: fmt.Sprintf("%s matches line %d", r.Ref.Raw, m.Line)})
				}
			}
			if r.Truncated {
				b.WriteString("… more matches were cut; narrow the pattern\n")
			}
			kind := "search"
			if r.Ref.Kind == query.RefGrep {
				kind = "grep"
			}
			out.extras = append(out.extras, Extra{Kind: kind, Title: r.Ref.Raw, Content: b.String()})
		case query.RefURL:
			if r.Page != nil {
				title := r.Ref.Raw
				if r.Page.Title != "" {
					title += " — " + r.Page.Title
				}
				out.extras = append(out.extras, Extra{Kind: "url", Title: title, Content: r.Page.Text})
			}
		}
	}
	return out
}

// sliceLines returns lines start..end (1-based, inclusive) of text; the
// whole text when start is 0.
func sliceLines(text string, start, end int) string {
	if start <= 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	if start > len(lines) {
		return ""
	}
	if end <= 0 || end > len(lines) {
		end = len(lines)
	}
	return strings.Join(lines[start-1:end], "")
}

// langTag is a fence language for a file that is not analysed source.
func langTag(p string) string {
	switch {
	case strings.HasSuffix(p, ".md"):
		return "markdown"
	case strings.HasSuffix(p, ".toml"):
		return "toml"
	case strings.HasSuffix(p, ".yaml"), strings.HasSuffix(p, ".yml"):
		return "yaml"
	case strings.HasSuffix(p, ".json"):
		return "json"
	case strings.HasSuffix(p, ".go"):
		return "go"
	case strings.HasSuffix(p, ".rs"):
		return "rust"
	}
	return ""
}
