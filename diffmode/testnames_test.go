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
