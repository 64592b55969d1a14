package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSymbolName(t *testing.T) {
	tests := []struct {
		in    string
		parts []string
	}{
		{"FindByEmail", []string{"FindByEmail"}},
		{"  find_by_email ", []string{"find_by_email"}},
		{"UserService.FindByEmail", []string{"UserService", "FindByEmail"}},
		{"(*UserService).FindByEmail", []string{"UserService", "FindByEmail"}},
		{"@UserService.FindByEmail()", []string{"UserService", "FindByEmail"}},
		{"github.com/acme/usersvc/internal/service.NewUserService", []string{"service", "NewUserService"}},
		{"crate::store::Store::orders_of", []string{"store", "Store", "orders_of"}},
		{"::std::vec::Vec<T>", []string{"std", "vec", "Vec"}},
		{"Store<'a>::get", []string{"Store", "get"}},
		{"Map[K, V].Get", []string{"Map", "Get"}},
		{"println!", []string{"println"}},
		{"", nil},
		{"two words", nil},
		{"a..b", nil},
		{"1abc", nil},
	}
	for _, tc := range tests {
		e, ok := ParseSymbolName(tc.in)
		if tc.parts == nil {
			if ok {
				t.Errorf("ParseSymbolName(%q) = %v, want no name", tc.in, e.Parts)
			}
			continue
		}
		if !ok {
			t.Errorf("ParseSymbolName(%q): no name", tc.in)
			continue
		}
		if diff := cmp.Diff(tc.parts, e.Parts); diff != "" {
			t.Errorf("ParseSymbolName(%q) parts (-want +got):\n%s", tc.in, diff)
		}
	}
}

// FuzzParseSymbolName checks that any name is either refused or split
// into identifiers.
func FuzzParseSymbolName(f *testing.F) {
	for _, s := range []string{"UserService.FindByEmail", "(*T).M", "a::b::C<T>", "x/y.Z()", "@", "[]<>::.", "é.ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, ok := ParseSymbolName(s)
		if !ok {
			return
		}
		if len(e.Parts) == 0 {
			t.Fatalf("%q: no parts and no error", s)
		}
		for _, p := range e.Parts {
			if p == "" {
				t.Fatalf("%q: empty part in %v", s, e.Parts)
			}
		}
	})
}
