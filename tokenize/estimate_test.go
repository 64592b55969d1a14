package tokenize

import (
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

func TestEstimateClasses(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"FindByEmail", 3}, // humps beat length/4
		{"find_by_email", 1 + 1 + 1 + 1 + 2},
		{"12345", 2},
		{"123", 1},
		{"a b", 2},       // a single space is free
		{"a  b", 3},      // a longer run costs one
		{"\tx", 2},       // a tab costs one
		{"x\n\ny", 4},    // each line break costs one
		{":=", 1},        // punctuation: half the run, rounded up
		{"();", 2},       //
		{"日本", 2},        // non-ASCII letters: one each
		{"🙂", 2},         // other non-ASCII: half the bytes
		{"\xff", 2},      // an invalid byte counts as U+FFFD
		{"x := 42\n", 4}, // x, ":=", "42", "\n"; the single spaces are free
	}
	for _, tt := range tests {
		if got := Estimate(tt.in); got != tt.want {
			t.Errorf("Estimate(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestEstimateIsAdditiveAtLineBreaks(t *testing.T) {
	for p, s := range repoFiles(t) {
		sum := 0
		for _, line := range strings.SplitAfter(s, "\n") {
			sum += Estimate(line)
		}
		if got := Estimate(s); got != sum {
			t.Errorf("%s: whole %d, sum of lines %d", p, got, sum)
		}
	}
}

// TestEstimateBoundsRepoCode checks the estimate stays an upper bound of
// o200k_base on this repository's own Go code, and not absurdly above it.
func TestEstimateBoundsRepoCode(t *testing.T) {
	for p, s := range repoFiles(t) {
		exact := rawCount(t, tokenizer.O200kBase, s)
		est := Estimate(s)
		ratio := float64(est) / float64(exact)
		if ratio < 1 || ratio > 2 {
			t.Errorf("%s: estimate %d vs o200k %d (ratio %.2f), want within [1, 2]", p, est, exact, ratio)
		}
	}
}
