package bm25

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"FindByEmail", []string{"findbyemail", "find", "email"}},
		{"find_by_email(x)", []string{"find_by_email", "find", "email", "x"}},
		{"HTTPServer2 ok", []string{"httpserver2", "http", "server2", "ok"}},
		{"the cart: fix rounding in Total", []string{"cart", "rounding", "total"}},
		{"Fix `Sleep::downcast_mut_pin`", []string{"sleep", "downcast_mut_pin", "downcast", "mut", "pin"}},
		{"v1.2 404 9lives", []string{"v1"}},
		{"cmd/commandfuncs.go", []string{"cmd", "commandfuncs", "go"}},
		{"crates/nu-command/src/ls.rs", []string{"crates", "nu", "command", "src", "ls", "rs"}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			Terms([]byte(tt.in), func(s string) { got = append(got, s) })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Terms(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestQueryTerms(t *testing.T) {
	terms, counts := QueryTerms("sync: fix `mark_changed` when the version overflows; mark version")
	if diff := cmp.Diff([]string{"sync", "mark_changed", "mark", "changed", "version", "overflows"}, terms); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 1, 2, 1, 2, 1}, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestFormula(t *testing.T) {
	// A term in one of two documents; one occurrence in a document of
	// average length: idf·(k1+1)/(1+k1).
	got := IDF(2, 1) * TermScore(1, 10, 10)
	want := math.Log(1+1.5/1.5) * 2.2 / 2.2
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("score = %v, want %v", got, want)
	}
	if IDF(10, 10) <= 0 {
		t.Errorf("a term in every document must keep a positive IDF")
	}
}

// TestScore pins the one BM25 formula that package rank's plain score and
// package eval's baselines share: the baseline's parameters give the same
// floats as the constants written out, to the bit, and Score is the query
// count times the IDF times the term score.
func TestScore(t *testing.T) {
	tests := []struct {
		count          int
		idf            float64
		tf, dl, avgLen float64
	}{
		{1, IDF(2, 1), 1, 10, 10},
		{2, IDF(7, 3), 3, 41, 17.25},
		{3, IDF(1000, 1), 12, 3, 912.5},
		{1, IDF(5, 5), 1, 1, 1},
	}
	for _, tt := range tests {
		const k1, b = 1.2, 0.75
		wantTS := tt.tf * (k1 + 1) / (tt.tf + k1*(1-b+b*tt.dl/tt.avgLen))
		if got := TermScore(tt.tf, tt.dl, tt.avgLen); got != wantTS {
			t.Errorf("TermScore(%v, %v, %v) = %v, want %v", tt.tf, tt.dl, tt.avgLen, got, wantTS)
		}
		if got := Baseline.TermScore(tt.tf, tt.dl, tt.avgLen); got != wantTS {
			t.Errorf("Baseline.TermScore(%v, %v, %v) = %v, want %v", tt.tf, tt.dl, tt.avgLen, got, wantTS)
		}
		want := float64(tt.count) * tt.idf * wantTS
		if got := Score(tt.count, tt.idf, tt.tf, tt.dl, tt.avgLen); got != want {
			t.Errorf("Score(%d, %v, %v, %v, %v) = %v, want %v", tt.count, tt.idf, tt.tf, tt.dl, tt.avgLen, got, want)
		}
	}
	// Other parameters: k1 = 2, b = 0 ignores length.
	p := Params{K1: 2, B: 0}
	if got, want := p.TermScore(1, 100, 1), 1.0; got != want {
		t.Errorf("Params{2, 0}.TermScore(1, 100, 1) = %v, want %v", got, want)
	}
}
