package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidStrategy(t *testing.T) {
	for s, want := range map[string]bool{
		"focused": true, "focused+semantic": true, "broad+entrypoint+semantic": true,
		"": false, "yolo": false, "focused+focused": false, "focused+": false, "+broad": false, "Focused": false,
	} {
		if got := ValidStrategy(s); got != want {
			t.Errorf("ValidStrategy(%q) = %v, want %v", s, got, want)
		}
	}
	// Every strategy Analyze recommends is valid.
	for _, q := range []string{"fix A.b", "how does main start", "refactor x", "add y", "", "why z"} {
		if s := Analyze(q).Strategy; !ValidStrategy(s) {
			t.Errorf("Analyze(%q).Strategy = %q is not valid", q, s)
		}
	}
}

func TestSplitSymbol(t *testing.T) {
	for in, want := range map[string][]string{
		"crate::store::Store::orders_of": {"store", "Store", "orders_of"},
		"UserService.find_by_email":      {"UserService", "find_by_email"},
		"Run":                            {"Run"},
		"a..b":                           nil,
		"rm -rf /":                       nil,
		"":                               nil,
	} {
		if diff := cmp.Diff(want, SplitSymbol(in)); diff != "" {
			t.Errorf("SplitSymbol(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestPlanEdits(t *testing.T) {
	p := Analyze("fix UserService.find_by_email")
	n := len(p.Terms)
	c := p.Clone()
	if !c.AddTerm(Term{Text: "cache", Weight: WeightWord, Kind: TermWord}) {
		t.Error("AddTerm(new) = false")
	}
	if c.AddTerm(Term{Text: "email", Weight: 9, Kind: TermWord}) {
		t.Error("AddTerm(existing) = true")
	}
	if c.AddTerm(Term{Text: "", Weight: 1}) || c.AddTerm(Term{Text: "x", Weight: 0}) {
		t.Error("AddTerm accepted an empty text or a zero weight")
	}
	if got := c.Terms[len(c.Terms)-1]; got.Text != "cache" || c.Keywords[len(c.Keywords)-1] != "cache" {
		t.Errorf("last term %+v, keywords %v", got, c.Keywords)
	}
	for _, term := range c.Terms {
		if term.Text == "email" && (term.Weight != 9 || term.Kind != TermWord) {
			t.Errorf("existing term not raised: %+v", term)
		}
	}
	if c.AddEntity(Entity{Raw: "UserService.find_by_email", Kind: EntitySymbol}) {
		t.Error("AddEntity(duplicate) = true")
	}
	if !c.AddEntity(Entity{Raw: "Store", Kind: EntitySymbol, Parts: []string{"Store"}}) {
		t.Error("AddEntity(new) = false")
	}
	c.Entities[0].Parts[0] = "Changed"
	if len(p.Terms) != n || len(p.Entities) != 1 || p.Entities[0].Parts[0] != "UserService" {
		t.Errorf("Clone shares state with the original: %+v", p)
	}
}
