package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// Key names an entry: the SHA-256 of everything the entry was computed
// from. Entries are content-addressed by their inputs, so two processes
// that compute the same key compute the same entry.
type Key [sha256.Size]byte

// String is the key in hex.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// IsZero reports whether k is the zero key, which names nothing.
func (k Key) IsZero() bool { return k == Key{} }

// ParseKey reads a key written by Key.String.
func ParseKey(s string) (Key, bool) {
	var k Key
	if len(s) != 2*len(k) {
		return Key{}, false
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return Key{}, false
	}
	return k, true
}

// Hasher builds a key from parts. Each part is length-prefixed, so
// ("ab", "c") and ("a", "bc") give different keys.
type Hasher struct {
	h   hash.Hash
	tmp [binary.MaxVarintLen64]byte
}

// NewHasher starts a key for entries of the given kind; the kind and the
// index format are always part of the key.
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String("ctxexpand-index")
	h.Uint(FormatVersion)
	h.String(kind)
	return h
}

// String adds a string part.
func (h *Hasher) String(s string) *Hasher {
	h.Uint(uint64(len(s)))
	h.h.Write([]byte(s))
	return h
}

// Bytes adds a byte slice part.
func (h *Hasher) Bytes(b []byte) *Hasher {
	h.Uint(uint64(len(b)))
	h.h.Write(b)
	return h
}

// Uint adds a number.
func (h *Hasher) Uint(v uint64) *Hasher {
	n := binary.PutUvarint(h.tmp[:], v)
	h.h.Write(h.tmp[:n])
	return h
}

// Bool adds a flag.
func (h *Hasher) Bool(v bool) *Hasher {
	if v {
		return h.Uint(1)
	}
	return h.Uint(0)
}

// Key adds another key.
func (h *Hasher) Key(k Key) *Hasher { return h.Bytes(k[:]) }

// Sum returns the key.
func (h *Hasher) Sum() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}
