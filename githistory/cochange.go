package githistory

import "fmt"

// CoChange is what history says about a file that changed together with
// the files of a change under review.
type CoChange struct {
	// Score is how strongly the commits that touched the changed files
	// tie this one to them: each such commit gives one unit shared among
	// the other files it touched (a commit of two files ties them fully,
	// one of thirty barely), and the sum is divided by the number of such
	// commits plus one, which shrinks it where they are few.
	Score float64
	// Together counts the commits that touched it and a changed file;
	// Touched counts those that touched a changed file.
	Together, Touched int
	// With is the changed file it went with most often.
	With string
}

// Detail says the evidence in words, for reasons.
func (c CoChange) Detail() string {
	return fmt.Sprintf("changed with %s in %d of %d commits", c.With, c.Together, c.Touched)
}

// CoChanged scores the files that past commits changed together with any
// of changed (paths relative to the root), the evolutionary coupling that
// review tools use to suggest what else a change should touch: a file is
// scored by the share of the commits touching a changed file that touched
// it too, over every commit read, each commit weighted by how few other
// files it touched (CoChange.Score). Commits that touched too many files (see
// Options) say nothing and are skipped; the changed files themselves are
// not scored.
func (s *Stats) CoChanged(changed []string) map[string]CoChange {
	if s == nil || len(changed) == 0 {
		return nil
	}
	isChanged := make(map[string]bool, len(changed))
	for _, p := range changed {
		isChanged[p] = true
	}
	type tally struct {
		together int
		weight   float64
		with     map[string]int // per changed file, the commits shared with it
	}
	tallies := map[string]*tally{}
	touched := 0
	for i := range s.Commits {
		files := s.Commits[i].Files
		var hit []string
		for _, f := range files {
			if isChanged[f] {
				hit = append(hit, f)
			}
		}
		if len(hit) == 0 {
			continue
		}
		touched++
		share := 1 / float64(max(1, len(files)-len(hit)))
		for _, f := range files {
			if isChanged[f] {
				continue
			}
			t := tallies[f]
			if t == nil {
				t = &tally{with: map[string]int{}}
				tallies[f] = t
			}
			t.together++
			t.weight += share
			for _, h := range hit {
				t.with[h]++
			}
		}
	}
	if len(tallies) == 0 {
		return nil
	}
	out := make(map[string]CoChange, len(tallies))
	for f, t := range tallies {
		// The partner it went with most; ties by path, for determinism.
		best := ""
		for p, n := range t.with {
			if b := t.with[best]; best == "" || n > b || n == b && p < best {
				best = p
			}
		}
		out[f] = CoChange{Score: t.weight / float64(touched+1), Together: t.together, Touched: touched, With: best}
	}
	return out
}
