package editdist

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b         string
		limit        int
		bytes, runes int
	}{
		{"user.go", "usr.go", 3, 1, 1},
		{"kitten", "sitting", 5, 3, 3},
		{"kitten", "sitting", -1, 3, 3},
		{"", "abc", 5, 3, 3},
		{"abc", "", -1, 3, 3},
		{"abcdef", "zzzzzz", 2, 3, 3},
		{"same", "same", 0, 0, 0},
		{"short", "muchlongername", 3, 4, 4},
		{"short", "muchlongername", -1, 11, 11},
		// No transpositions: a swap is two substitutions.
		{"ab", "ba", -1, 2, 2},
		// Bytes count each byte of a multi-byte rune.
		{"café", "cafe", -1, 2, 1},
		{"naïve", "naive", 1, 2, 1},
	} {
		if got := Bytes(tt.a, tt.b, tt.limit); got != tt.bytes {
			t.Errorf("Bytes(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.bytes)
		}
		if got := Runes(tt.a, tt.b, tt.limit); got != tt.runes {
			t.Errorf("Runes(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.runes)
		}
	}
}

// TestBoundAgrees checks that a bound changes only what lies past it.
func TestBoundAgrees(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "find_by_email", "findbyemail", "FindByEmail", "budget", "budgte", "max_files", "maxfiles", "héllo", "hello"}
	for _, a := range words {
		for _, b := range words {
			full := Bytes(a, b, -1)
			for limit := 0; limit <= 4; limit++ {
				want := full
				if full > limit {
					want = limit + 1
				}
				if got := Bytes(a, b, limit); got != want {
					t.Errorf("Bytes(%q, %q, %d) = %d, want %d (unbounded %d)", a, b, limit, got, want, full)
				}
			}
			if Bytes(a, b, -1) != Bytes(b, a, -1) || Runes(a, b, -1) != Runes(b, a, -1) {
				t.Errorf("distance(%q, %q) is not symmetric", a, b)
			}
		}
	}
}
