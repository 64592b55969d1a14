// Package auth authenticates users: it hashes and checks passwords, issues
// and verifies signed session tokens with an expiry, and guards HTTP
// handlers with a bearer-token middleware.
package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// hashIterations is how many rounds of HMAC-SHA256 stretch a password.
// Raising it invalidates nothing: the count is stored in each hash.
const hashIterations = 10000

// saltSize is the length of a password salt, in bytes.
const saltSize = 16

// ErrMalformedHash means a stored password hash cannot be parsed.
var ErrMalformedHash = errors.New("malformed password hash")

// HashPassword returns a salted, stretched hash of password in the form
// "iterations$salt$digest" (salt and digest in unpadded base64).
func HashPassword(password string) (string, error) {
	salt := make([]byte, saltSize)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("generating salt: %w", err)
	}
	digest := stretch([]byte(password), salt, hashIterations)
	enc := base64.RawStdEncoding
	return strconv.Itoa(hashIterations) + "$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(digest), nil
}

// VerifyPassword reports whether password matches a hash made by
// HashPassword. It takes constant time in the digest comparison.
func VerifyPassword(hash, password string) bool {
	iterations, salt, digest, err := parseHash(hash)
	if err != nil {
		return false
	}
	got := stretch([]byte(password), salt, iterations)
	return subtle.ConstantTimeCompare(got, digest) == 1
}

// parseHash splits a stored hash into its parts.
func parseHash(hash string) (iterations int, salt, digest []byte, err error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 3 {
		return 0, nil, nil, ErrMalformedHash
	}
	iterations, err = strconv.Atoi(parts[0])
	if err != nil || iterations < 1 {
		return 0, nil, nil, ErrMalformedHash
	}
	enc := base64.RawStdEncoding
	if salt, err = enc.DecodeString(parts[1]); err != nil {
		return 0, nil, nil, ErrMalformedHash
	}
	if digest, err = enc.DecodeString(parts[2]); err != nil {
		return 0, nil, nil, ErrMalformedHash
	}
	return iterations, salt, digest, nil
}

// stretch applies iterations rounds of HMAC-SHA256 keyed by the password.
func stretch(password, salt []byte, iterations int) []byte {
	mac := hmac.New(sha256.New, password)
	sum := salt
	for i := 0; i < iterations; i++ {
		mac.Reset()
		mac.Write(sum)
		sum = mac.Sum(nil)
	}
	return sum
}
