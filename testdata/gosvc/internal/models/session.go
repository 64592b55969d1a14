package models

import "time"

// Session is a signed-in user's login, carried by a bearer token.
type Session struct {
	UserID    string    `json:"user_id"`
	Role      Role      `json:"role"`
	IssuedAt  time.Time `json:"issued_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Expired reports whether the session is no longer valid at now. A session
// is valid up to and including its expiry instant.
func (s Session) Expired(now time.Time) bool {
	return now.After(s.ExpiresAt)
}

// Remaining is how long the session stays valid after now; zero once it
// has expired.
func (s Session) Remaining(now time.Time) time.Duration {
	if s.Expired(now) {
		return 0
	}
	return s.ExpiresAt.Sub(now)
}
