package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/bundle"
	"github.com/ctxexpand/ctxexpand/diffmode"
	"github.com/ctxexpand/ctxexpand/expand"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// DiffShare is the share of the budget the diff itself may take in a
// review; the changed symbols and their context get the rest.
const DiffShare = 0.4

// maxChangedBytes bounds the changed lines a review's request carries
// (Request.ChangedLines): enough for the words of a large change, small
// beside the socket's request limit.
const maxChangedBytes = 64 << 10

// Review is a change to review: a parsed diff mapped onto the new side's
// facts, with what the caller knows about it. The diff command and the
// MCP server's diff_context both turn one into a Request with
// [ReviewRequest], so that they build the same bundle.
type Review struct {
	Diff   *diffmode.Diff
	Report *diffmode.Report
	// What names the change ("the working tree against HEAD (4d4e02d)");
	// it titles the list of changes.
	What string
	// Subjects are the commit subjects of the change, newest first; their
	// words join the query.
	Subjects []string
	// Words are the user's own words about the change (optional); they
	// lead the query, @references and all.
	Words string
	// Notes are what the caller found (untracked files, CRLF input, a
	// missing merge base); they come before the report's own.
	Notes []string
}

// ReviewRequest completes req — whose budget, format, strategy and
// tuning the caller has set — for reviewing rv: the query names the
// changed symbols (after the user's words, before the commit subjects);
// the changed places are pinned first; the list of changes and the diff,
// fitted to DiffShare of the budget, lead the bundle; and the notes say
// what was deleted, left unpinned or cut. @url references are never
// fetched in a review.
func ReviewRequest(req Request, rv Review) Request {
	rep := rv.Report
	// A review is a kind of its own: the learned model is trained on task
	// descriptions, and what a change affects is the impact strategy's
	// hand-weighted walk (expand.RankerFor).
	req.Kind = query.KindDiff
	seeds, dropped := rep.Seeds(0)
	req.Explicit = append([]expand.Explicit(nil), req.Explicit...)
	for _, sd := range seeds {
		req.Explicit = append(req.Explicit, expand.Explicit{Path: sd.Path, StartLine: sd.Start, EndLine: sd.End, Reason: sd.Reason})
	}
	notes := append(append([]string(nil), req.Notes...), rv.Notes...)
	notes = append(notes, rep.Notes...)
	notes = append(notes, rep.Deleted()...)
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d more changed places were not pinned (the limit is %d); review a narrower range", dropped, diffmode.DefaultMaxSeeds))
	}
	extras := append([]Extra(nil), req.Extras...)
	if sum := rep.Summary(); sum != "" {
		extras = append(extras, Extra{Kind: "changes", Title: rv.What, Content: sum})
	}
	secs, cutNote := diffmode.Sections(rv.Diff, int(float64(req.Budget)*DiffShare), tokenize.Estimate)
	for _, sec := range secs {
		extras = append(extras, Extra{Kind: "diff", Title: sec.Title, Content: sec.Content, Lang: "diff"})
	}
	if cutNote != "" {
		notes = append(notes, cutNote)
	}
	query := rep.QueryText(rv.Subjects)
	if words := strings.TrimSpace(rv.Words); words != "" {
		query = words + "; " + query
	}
	req.Query = query
	req.Changed = nil
	for _, f := range rv.Diff.Files {
		if f.NewPath != "" {
			req.Changed = append(req.Changed, f.NewPath)
		}
		if f.OldPath != "" && f.OldPath != f.NewPath {
			req.Changed = append(req.Changed, f.OldPath)
		}
	}
	req.ChangedLines = rv.Diff.ChangedLines(maxChangedBytes)
	req.NoNetwork = true
	req.Extras = extras
	req.Notes = notes
	return req
}

// ReviewChange maps ch onto the session's facts (the session of ch.Root)
// and returns the review of it, with the user's words. On an error, the
// review holds what was mapped before it (a time limit stops the mapping
// part way).
func (s *Session) ReviewChange(ctx context.Context, ch *diffmode.ChangeSet, words string) (Review, error) {
	rep, err := diffmode.Map(ctx, s.Facts, ch.Diff, ch.Sources)
	rv := Review{Diff: ch.Diff, Report: rep, What: ch.What, Subjects: ch.Subjects, Words: words, Notes: ch.Notes}
	return rv, err
}

// EmptyReview is the bundle of a review whose change has no files, so
// that a caller (a CI job) still gets a well-formed document: no files,
// ch's commit and notes, in req's format and strategy within its budget
// as its tokenizer counts. A format or tokenizer that does not exist is a
// *RequestError whose Err says so.
func EmptyReview(ctx context.Context, req Request, ch *diffmode.ChangeSet, notes []string) ([]byte, error) {
	format, err := bundle.ParseFormat(req.Format)
	if err != nil {
		return nil, &RequestError{Field: "format", Err: err, format: "{format}: %v", args: []any{err}}
	}
	counter, err := tokenize.New(req.Tokenizer, tokenize.WithMargin(req.TokenMargin))
	if err != nil {
		return nil, &RequestError{Field: "tokenizer", Err: err, format: "{tokenizer}: %v", args: []any{err}}
	}
	res, err := bundle.Build(ctx, bundle.Request{
		Query:    "review the change",
		Strategy: req.Strategy,
		Commit:   ch.Commit,
		Root:     ch.Root,
		Budget:   req.Budget,
		Counter:  counter,
		Format:   format,
		Notes:    notes,
	})
	if err != nil {
		return nil, err
	}
	return res.Output, nil
}
