package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/acme/usersvc/internal/models"
)

// sessionKey is the context key under which Middleware stores the session.
type sessionKey struct{}

// Middleware returns HTTP middleware that requires a valid bearer token.
// Requests without one get 401 Unauthorized; the session of an accepted
// request is available to the next handler through SessionFrom.
func Middleware(v TokenVerifier) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token, ok := bearerToken(r)
			if !ok {
				unauthorized(w, "missing bearer token")
				return
			}
			sess, err := v.Verify(token)
			switch {
			case errors.Is(err, ErrTokenExpired):
				unauthorized(w, "token expired")
				return
			case err != nil:
				unauthorized(w, "invalid token")
				return
			}
			next.ServeHTTP(w, r.WithContext(WithSession(r.Context(), sess)))
		})
	}
}

// WithSession returns a copy of ctx that carries sess.
func WithSession(ctx context.Context, sess models.Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, sess)
}

// SessionFrom returns the session Middleware stored in ctx.
func SessionFrom(ctx context.Context) (models.Session, bool) {
	sess, ok := ctx.Value(sessionKey{}).(models.Session)
	return sess, ok
}

// bearerToken extracts the token of an "Authorization: Bearer …" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// unauthorized writes a 401 response with a WWW-Authenticate challenge.
func unauthorized(w http.ResponseWriter, reason string) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	http.Error(w, reason, http.StatusUnauthorized)
}
