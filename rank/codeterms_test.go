package rank

import (
	"slices"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/query"
)

func TestCodeTerms(t *testing.T) {
	lines := []string{
		`let iter = dotenvy::from_path_iter(path).map_err(|dotenv_error| Error::Dotenv {`,
		`    dotenv_error,`,
		`    path: path.into(),`,
		`write!(f, "Failed to load environment file from {}", path.display())?;`,
		`path path path`,
	}
	terms, spelled := CodeTerms(lines)
	weight := map[string]float64{}
	for _, tm := range terms {
		weight[tm.Text] = tm.Weight
	}
	// A term repeated more than codeTermRepeat times weighs that much.
	if got := weight[query.NormTerm("path")]; got != codeTermRepeat {
		t.Errorf("path weighs %v, want %v (spelled seven times)", got, float64(codeTermRepeat))
	}
	// An identifier gives its whole form and its parts, as the index does.
	if got := weight["dotenverror"]; got != 2 {
		t.Errorf("dotenverror weighs %v, want 2", got)
	}
	if got := weight[query.NormTerm("dotenv")]; got != 3 {
		t.Errorf("dotenv weighs %v, want 3 (dotenv_error twice, Dotenv once)", got)
	}
	// The words of string literals count too: an error message is what an
	// integration test checks.
	if weight[query.NormTerm("environment")] != 1 || weight[query.NormTerm("failed")] != 1 {
		t.Errorf("the message's words are missing: %v", terms)
	}
	// Stop words are not terms.
	if _, ok := weight["from"]; ok {
		t.Errorf("the stop word from is a term: %v", terms)
	}
	if !slices.IsSortedFunc(terms, func(a, b query.Term) int { return strings.Compare(a.Text, b.Text) }) {
		t.Errorf("terms are not in the order of their text: %v", terms)
	}
	if got := spelled[query.NormTerm("dotenv")]; got != "dotenv_error" {
		t.Errorf("dotenv is spelled %q, want the first identifier that gave it, dotenv_error", got)
	}
	if again, _ := CodeTerms(lines); !slices.Equal(again, terms) {
		t.Errorf("a second call gives other terms")
	}
	if none, _ := CodeTerms(nil); len(none) != 0 {
		t.Errorf("no lines give terms %v", none)
	}
}
