package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/acme/usersvc/internal/models"
)

// DefaultTokenTTL is how long a session token stays valid when the
// configuration does not say otherwise.
const DefaultTokenTTL = 24 * time.Hour

// Errors returned by TokenIssuer.Verify; check them with errors.Is.
var (
	// ErrTokenInvalid means the token is malformed or its signature is wrong.
	ErrTokenInvalid = errors.New("invalid token")
	// ErrTokenExpired means the token was valid but its expiry has passed.
	ErrTokenExpired = errors.New("token expired")
)

// TokenVerifier checks a bearer token and returns the session it carries.
// The middleware depends on this interface rather than on TokenIssuer.
type TokenVerifier interface {
	Verify(token string) (models.Session, error)
}

// TokenIssuer issues and verifies session tokens: a base64 JSON session
// followed by an HMAC-SHA256 signature, "payload.signature". A token
// expires TTL after it was issued.
type TokenIssuer struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewTokenIssuer returns an issuer that signs with secret and gives each
// token a lifetime of ttl (DefaultTokenTTL when ttl is not positive).
func NewTokenIssuer(secret []byte, ttl time.Duration) *TokenIssuer {
	if ttl <= 0 {
		ttl = DefaultTokenTTL
	}
	return &TokenIssuer{secret: secret, ttl: ttl, now: time.Now}
}

// TTL is the lifetime of the tokens the issuer makes.
func (t *TokenIssuer) TTL() time.Duration { return t.ttl }

// Issue creates a session for the user that expires TTL from now and
// returns it with its signed token.
func (t *TokenIssuer) Issue(u *models.User) (string, models.Session, error) {
	now := t.now().UTC()
	sess := models.Session{
		UserID:    u.ID,
		Role:      u.Role,
		IssuedAt:  now,
		ExpiresAt: now.Add(t.ttl),
	}
	payload, err := json.Marshal(sess)
	if err != nil {
		return "", models.Session{}, fmt.Errorf("encoding session: %w", err)
	}
	body := base64.RawURLEncoding.EncodeToString(payload)
	return body + "." + t.sign(body), sess, nil
}

// Verify checks the token's signature and expiry and returns its session.
// It returns ErrTokenInvalid for a forged or malformed token and
// ErrTokenExpired once the session's ExpiresAt has passed.
func (t *TokenIssuer) Verify(token string) (models.Session, error) {
	body, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(t.sign(body))) {
		return models.Session{}, ErrTokenInvalid
	}
	payload, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return models.Session{}, ErrTokenInvalid
	}
	var sess models.Session
	if err := json.Unmarshal(payload, &sess); err != nil {
		return models.Session{}, ErrTokenInvalid
	}
	if sess.Expired(t.now()) {
		return models.Session{}, ErrTokenExpired
	}
	return sess, nil
}

// sign returns the base64 HMAC-SHA256 of body under the issuer's secret.
func (t *TokenIssuer) sign(body string) string {
	mac := hmac.New(sha256.New, t.secret)
	mac.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
