package index

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"testing"
)

// TestHasherHashesTheParts checks that a key is the SHA-256 of its parts,
// each length-prefixed, whatever their sizes: the buffer (Hasher) is only
// a way of feeding them, and keys already on disk must not change.
func TestHasherHashesTheParts(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 300) // past the buffer
	cases := [][]string{
		nil,
		{"a"},
		{"ab", "c"},
		{"a", "bc"},
		{long},
		{long, "x", long[:1017], "", long[:1030]},
	}
	for i := 0; i < 200; i++ { // many short parts: the buffer fills mid-part
		cases = append(cases, strings.Split(long[:i*7], "7"))
	}
	for _, parts := range cases {
		h := NewHasher("test")
		var stream []byte
		var tmp [binary.MaxVarintLen64]byte
		for _, p := range []string{"ctxexpand-index"} {
			stream = append(stream, tmp[:binary.PutUvarint(tmp[:], uint64(len(p)))]...)
			stream = append(stream, p...)
		}
		stream = append(stream, tmp[:binary.PutUvarint(tmp[:], FormatVersion)]...)
		stream = append(stream, tmp[:binary.PutUvarint(tmp[:], 4)]...)
		stream = append(stream, "test"...)
		for j, p := range parts {
			if j%2 == 0 {
				h.String(p)
			} else {
				h.Bytes([]byte(p))
			}
			h.Uint(uint64(j))
			stream = append(stream, tmp[:binary.PutUvarint(tmp[:], uint64(len(p)))]...)
			stream = append(stream, p...)
			stream = append(stream, tmp[:binary.PutUvarint(tmp[:], uint64(j))]...)
		}
		want := Key(sha256.Sum256(stream))
		if got := h.Sum(); got != want {
			t.Fatalf("parts of sizes %d: key %s, want %s", len(parts), got, want)
		}
		if got := h.Sum(); got != want {
			t.Fatalf("parts of sizes %d: a second Sum gives %s, want %s", len(parts), got, want)
		}
	}
}

// BenchmarkHasher builds a key the size of a Go package's content key:
// a kind, a salt, twenty file paths with their content hashes, ten
// import paths with their keys.
func BenchmarkHasher(b *testing.B) {
	var k Key
	for b.Loop() {
		h := NewHasher("go-pkg").String("go1.26 linux/amd64")
		for i := 0; i < 20; i++ {
			h.String("hugolib/page__content.go").String("3f1c0e5d8a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d").Uint(uint64(i))
		}
		for i := 0; i < 10; i++ {
			h.String("github.com/gohugoio/hugo/resources/page").Key(k).Bool(i%2 == 0)
		}
		k = h.Sum()
	}
}
