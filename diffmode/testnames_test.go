package diffmode

import "testing"

func TestNamesTest(t *testing.T) {
	tests := []struct {
		src, test, lang string
		want            bool
	}{
		{"cart/cart.go", "cart/cart_test.go", "go", true},
		{"cart/cart.go", "cart/cart_internal_test.go", "go", true},
		{"cart/cart.go", "other/cart_test.go", "go", false}, // another package
		{"cart/cart.go", "cart/cartx_test.go", "go", false},
		{"cart/cart.go", "cart/cart.go", "go", false},
		{"src/parser.rs", "tests/parser.rs", "rust", true},
		{"src/parser.rs", "tests/parser_tests.rs", "rust", true},
		{"src/parser.rs", "tests/test-parser.rs", "rust", true},
		{"src/parser.rs", "tests/parsers.rs", "rust", false},
		{"src/parser/mod.rs", "tests/parser.rs", "rust", true},
		{"src/method_routing.rs", "tests/method_routing_tests.rs", "rust", true},
		{"src/lib.rs", "tests/src.rs", "rust", false}, // the crate root names no module
		{"src/lib.rs", "tests/lib.rs", "rust", false},
		{"a.py", "test_a.py", "python", false},
	}
	for _, tt := range tests {
		if got := NamesTest(tt.src, tt.test, tt.lang); got != tt.want {
			t.Errorf("NamesTest(%q, %q, %s) = %v, want %v", tt.src, tt.test, tt.lang, got, tt.want)
		}
	}
}

func TestTestsModule(t *testing.T) {
	tests := []struct {
		src, test string
		want      string // the module; "" when none
	}{
		{"regex-automata/src/dfa/sparse.rs", "regex-automata/tests/dfa/api.rs", "dfa"},
		{"gix/src/clone/fetch/mod.rs", "gix/tests/gix/clone.rs", "clone"},
		{"meilisearch/src/routes/indexes/search.rs", "meilisearch/tests/search/errors.rs", "search"},
		{"src/blocking/client.rs", "tests/blocking.rs", "blocking"},
		{"src/async_impl/client.rs", "tests/async-impl-extra.rs", "async_impl"},
		{"src/parser.rs", "tests/parser.rs", "parser"},
		{"milli/src/search/query_tree.rs", "meilisearch/tests/search/mod.rs", ""}, // another package
		{"src/dfa/sparse.rs", "tests/nfa/api.rs", ""},
		{"src/lib.rs", "tests/lib.rs", ""},     // the crate root names no module
		{"src/dfa/mod.rs", "tests/mod.rs", ""}, // nor does mod.rs: its directory does
		{"src/dfa/mod.rs", "tests/dfa.rs", "dfa"},
		{"src/dfa/sparse.rs", "src/dfa/tests.rs", ""}, // not under tests/
		{"benches/dfa/x.rs", "tests/dfa/api.rs", ""},
	}
	for _, tt := range tests {
		got, ok := TestsModule(tt.src, tt.test, "rust")
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("TestsModule(%q, %q) = %q, %v, want %q", tt.src, tt.test, got, ok, tt.want)
		}
	}
	if _, ok := TestsModule("dfa/sparse.go", "tests/dfa/api_test.go", "go"); ok {
		t.Error("TestsModule matched Go files")
	}
}
