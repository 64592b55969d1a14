package expand

import (
	"slices"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

func TestCompareRelevance(t *testing.T) {
	rs := []Relevance{
		{Path: "unranked-high", Margin: 0.5, HandPos: -1},
		{Path: "unlikely-hand2", Margin: 2, HandPos: 2},
		{Path: "likely-b", Margin: 3, Likely: true, HandPos: 5},
		{Path: "explicit", Margin: -9, HandPos: 9, Explicit: true},
		{Path: "unlikely-hand0", Margin: -1, HandPos: 0},
		{Path: "likely-a", Margin: 4, Likely: true, HandPos: 7},
		{Path: "unranked-low", Margin: 0.1, HandPos: -1},
	}
	slices.SortFunc(rs, CompareRelevance)
	var got []string
	for _, r := range rs {
		got = append(got, r.Path)
	}
	want := []string{"explicit", "likely-a", "likely-b", "unlikely-hand0", "unlikely-hand2", "unranked-high", "unranked-low"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestSetReadingOrder(t *testing.T) {
	file := func(id int, explicit bool) File {
		return File{FileRank: rank.FileRank{File: analyze.FileID(id), Explicit: explicit}}
	}
	hand := []rank.FileRank{{File: 3}, {File: 1}, {File: 2}}
	// Ranked by relevance: 1, 2, 3, 4 (4 is not in the hand order).
	files := []File{file(1, false), file(2, false), file(3, false), file(4, false)}
	setReadingOrder(files, positions(hand))
	var got []int
	for _, f := range files {
		got = append(got, f.ReadAt)
	}
	if want := []int{2, 3, 1, 4}; !slices.Equal(got, want) {
		t.Errorf("reading places %v, want %v", got, want)
	}
	// The same order: nothing to say.
	same := []File{file(3, false), file(1, false), file(2, false)}
	setReadingOrder(same, positions(hand))
	for _, f := range same {
		if f.ReadAt != 0 {
			t.Errorf("file %d got place %d in an unchanged order", f.File, f.ReadAt)
		}
	}
	// Explicit files read first.
	ex := []File{file(1, false), file(9, true)}
	setReadingOrder(ex, positions(hand))
	if ex[1].ReadAt != 1 || ex[0].ReadAt != 2 {
		t.Errorf("explicit file placed %d, other %d", ex[1].ReadAt, ex[0].ReadAt)
	}
}

func TestRankerFor(t *testing.T) {
	questions := RankerHand
	if m, err := learn.Question(); err != nil {
		t.Fatal(err)
	} else if m != nil {
		questions = RankerLearned
	}
	for k, want := range map[query.Kind]string{
		query.KindFix: RankerLearned, query.KindIssue: RankerLearned, "": RankerLearned,
		query.KindQuestion: questions, query.KindLookup: RankerHand, query.KindDiff: RankerHand,
	} {
		if got, why := RankerFor(k); got != want || why == "" {
			t.Errorf("RankerFor(%q) = %s (%q), want %s", k, got, why, want)
		}
	}
	for have, want := range map[bool]string{false: RankerHand, true: RankerLearned} {
		if got, _ := AutoRanker(query.KindQuestion, have); got != want {
			t.Errorf("AutoRanker(question, model %v) = %s, want %s", have, got, want)
		}
	}
}

// TestRankingModelByKind: the learned ranker reads a question with the
// model trained on questions, when the build ships one, and every other
// kind with the model trained on fixes; the default's reason names it.
func TestRankingModelByKind(t *testing.T) {
	fixes, err := ShippedModel()
	if err != nil || fixes == nil {
		t.Fatalf("no model for fixes (err %v)", err)
	}
	for _, k := range []query.Kind{query.KindFix, query.KindIssue, query.KindLookup, query.KindQuestion} {
		m, ranker, _, err := RankingModel(RankerLearned, k)
		if err != nil || ranker != RankerLearned {
			t.Fatalf("RankingModel(learned, %s) = %s, %v", k, ranker, err)
		}
		want, wantWhy := fixes, "fixes"
		if q, _ := learn.Question(); q != nil && k == query.KindQuestion {
			_, want, _ = ShippedModelFor(k)
			wantWhy = "questions mined from doc comments"
		}
		if m != want {
			t.Errorf("RankingModel(learned, %s): model %p, want %p", k, m, want)
		}
		if k == query.KindLookup {
			continue // auto ranks a lookup by hand
		}
		if m, _, why, _ := RankingModel(RankerAuto, k); m != want || !strings.Contains(why, wantWhy) {
			t.Errorf("RankingModel(auto, %s): model %p (%q), want %p (%q)", k, m, why, want, wantWhy)
		}
	}
}

func TestCheckDepth(t *testing.T) {
	for d, ok := range map[int]bool{-1: false, 0: true, 10: true, 11: false} {
		if err := CheckDepth(d); (err == nil) != ok {
			t.Errorf("CheckDepth(%d) = %v", d, err)
		}
	}
	if err := CheckDepth(11); err == nil || err.Error() != "depth must be between 0 and 10, got 11" {
		t.Errorf("message: %v", err)
	}
}
