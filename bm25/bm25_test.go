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
		{"v1.2 404 9lives", []string{"v1"}},
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
