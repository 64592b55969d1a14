package githistory

import (
	"math"
	"sort"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/bm25"
	"github.com/ctxexpand/ctxexpand/query"
)

// Similar past changes: a task tends to touch the files that earlier
// commits with similar messages touched ("xdsclient: fix watcher race"
// after "xdsclient: close watchers on shutdown"). Commit messages are
// indexed with BM25 over the same terms as queries; the most similar
// commits vote for the files they changed.

// maxVoters is how many of the most similar commits vote.
const maxVoters = 30

type messageIndex struct {
	tf     []map[string]float64
	length []float64
	df     map[string]int
	avgLen float64
}

func (s *Stats) index() *messageIndex {
	s.indexOnce.Do(func() { s.msgIndex = buildIndex(s.Commits) })
	return s.msgIndex
}

func buildIndex(commits []Commit) *messageIndex {
	ix := &messageIndex{df: map[string]int{}}
	cache := map[string][]string{}
	var total float64
	for _, c := range commits {
		tf := map[string]float64{}
		var n float64
		analyze.Identifiers([]byte(c.Message), func(tok []byte) {
			ts, ok := cache[string(tok)]
			if !ok {
				ts = messageTerms(string(tok))
				cache[string(tok)] = ts
			}
			for _, t := range ts {
				tf[t]++
				n++
			}
		})
		for t := range tf {
			ix.df[t]++
		}
		ix.tf = append(ix.tf, tf)
		ix.length = append(ix.length, n)
		total += n
	}
	if len(commits) > 0 {
		ix.avgLen = total / float64(len(commits))
	}
	return ix
}

// messageTerms are the index terms of one word of a message, as query
// analysis makes them: the style-insensitive whole identifier and its
// stemmed parts, stop words dropped.
func messageTerms(tok string) []string {
	var out []string
	parts := query.TermsOf(tok)
	if len(analyze.SplitIdent(tok)) > 1 {
		if w := analyze.NormName(tok); len(w) > 1 {
			out = append(out, w)
		}
	}
	for _, p := range parts {
		if len(p) > 1 && !query.IsStopWord(p) {
			out = append(out, p)
		}
	}
	return out
}

// FileVote is what similar past changes say about one file.
type FileVote struct {
	Score float64 // 0..1, the file's share of the best file's votes
	// Best is the subject of the most similar commit that changed it.
	Best string
}

// Similar scores the files that the commits whose messages are most
// similar to the query terms changed: each of the 30 most similar commits
// gives its similarity to each file it touched, divided by the square root
// of the number of files it touched; the sums are divided by the largest.
// Commits that touched too many files (see Options) do not vote.
func (s *Stats) Similar(terms []query.Term) map[string]FileVote {
	if s == nil || len(s.Commits) == 0 {
		return nil
	}
	ix := s.index()
	type hit struct {
		i   int
		sim float64
	}
	var hits []hit
	for i, tf := range ix.tf {
		if len(s.Commits[i].Files) == 0 {
			continue
		}
		var sim float64
		for _, t := range terms {
			f := tf[t.Text]
			if f == 0 || t.Weight <= 0 {
				continue
			}
			idf := bm25.IDF(len(s.Commits), ix.df[t.Text])
			norm := 1.2 * (0.25 + 0.75*ix.length[i]/math.Max(ix.avgLen, 1))
			sim += t.Weight * idf * f * 2.2 / (f + norm)
		}
		if sim > 0 {
			hits = append(hits, hit{i, sim})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].sim != hits[b].sim {
			return hits[a].sim > hits[b].sim
		}
		return hits[a].i < hits[b].i // newer first
	})
	if len(hits) > maxVoters {
		hits = hits[:maxVoters]
	}
	votes := map[string]FileVote{}
	var best float64
	for _, h := range hits {
		c := &s.Commits[h.i]
		share := h.sim / math.Sqrt(float64(len(c.Files)))
		for _, f := range c.Files {
			v := votes[f]
			if v.Best == "" {
				v.Best = c.Subject
			}
			v.Score += share
			votes[f] = v
			best = math.Max(best, v.Score)
		}
	}
	for f, v := range votes {
		v.Score /= best
		votes[f] = v
	}
	return votes
}
