// Package editdist owns the one edit distance of the module: the
// Levenshtein distance (insertions, deletions and substitutions, each
// costing one; no transpositions), bounded so that a search over many
// candidates gives up on each as soon as it is sure to be too far.
//
// [Bytes] counts bytes and [Runes] counts runes. Their callers keep the
// unit they had before the copies became one: ranking's fuzzy name match
// and the configuration's "did you mean" count bytes, the suggestions for a
// missing @file count runes.
//
// # Cost
//
// O(len(a)·len(b)) time at most, less when the bound is reached early;
// two rows of len(b)+1 ints, plus the []rune conversion for Runes.
package editdist

// Bytes is the Levenshtein distance of a and b over bytes, or limit+1
// when it exceeds limit. A negative limit means no limit.
func Bytes(a, b string, limit int) int {
	return distance([]byte(a), []byte(b), limit)
}

// Runes is the Levenshtein distance of a and b over runes, or limit+1
// when it exceeds limit. A negative limit means no limit.
func Runes(a, b string, limit int) int {
	return distance([]rune(a), []rune(b), limit)
}

func distance[E comparable](a, b []E, limit int) int {
	if limit >= 0 {
		if d := len(a) - len(b); d > limit || -d > limit {
			return limit + 1
		}
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		// Every later row is at least this row's least value.
		if limit >= 0 && rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	if d := prev[len(b)]; limit < 0 || d <= limit {
		return d
	}
	return limit + 1
}
