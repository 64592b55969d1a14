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
//
// Parts are gathered in a buffer inside the Hasher and hashed a buffer at
// a time: most keys are a few hundred bytes of short parts, and writing
// each part through hash.Hash (a string copied to a new slice, a call per
// length prefix) cost more than the hashing itself, about 40 ms of CPU in
// each edit a resident server applies to hugo. The bytes hashed, and so
// the keys, are the same as part by part.
type Hasher struct {
	h   hash.Hash // nil until the buffer first fills
	n   int       // bytes of buf in use
	buf [hasherBuf]byte
}

const hasherBuf = 1024

// NewHasher starts a key for entries of the given kind; the kind and the
// index format are always part of the key.
func NewHasher(kind string) *Hasher {
	h := &Hasher{}
	h.String("ctxexpand-index")
	h.Uint(FormatVersion)
	h.String(kind)
	return h
}

// flush hashes the buffer's bytes.
func (h *Hasher) flush() {
	if h.h == nil {
		h.h = sha256.New()
	}
	h.h.Write(h.buf[:h.n])
	h.n = 0
}

// write adds bytes (a string or a slice) to what is hashed.
func write[T string | []byte](h *Hasher, p T) {
	for len(p) > 0 {
		if h.n == len(h.buf) {
			h.flush()
		}
		c := copy(h.buf[h.n:], p)
		h.n += c
		p = p[c:]
	}
}

// String adds a string part.
func (h *Hasher) String(s string) *Hasher {
	h.Uint(uint64(len(s)))
	write(h, s)
	return h
}

// Bytes adds a byte slice part.
func (h *Hasher) Bytes(b []byte) *Hasher {
	h.Uint(uint64(len(b)))
	write(h, b)
	return h
}

// Uint adds a number.
func (h *Hasher) Uint(v uint64) *Hasher {
	if len(h.buf)-h.n < binary.MaxVarintLen64 {
		h.flush()
	}
	h.n += binary.PutUvarint(h.buf[h.n:], v)
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
	if h.h == nil {
		return sha256.Sum256(h.buf[:h.n])
	}
	h.flush()
	var k Key
	h.h.Sum(k[:0])
	return k
}
