package auth

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acme/usersvc/internal/models"
)

// fixedClock returns a clock stuck at t and a function that moves it.
func fixedClock(t time.Time) (func() time.Time, func(time.Duration)) {
	now := t
	return func() time.Time { return now }, func(d time.Duration) { now = now.Add(d) }
}

func TestTokenIssuer_Verify(t *testing.T) {
	clock, advance := fixedClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	issuer := NewTokenIssuer([]byte("secret"), time.Hour)
	issuer.now = clock
	user := &models.User{ID: "u1", Role: models.RoleAdmin}

	token, sess, err := issuer.Issue(user)
	if err != nil {
		t.Fatal(err)
	}
	if want := clock().Add(time.Hour); !sess.ExpiresAt.Equal(want) {
		t.Errorf("ExpiresAt = %v, want %v", sess.ExpiresAt, want)
	}
	got, err := issuer.Verify(token)
	if err != nil || got.UserID != "u1" || got.Role != models.RoleAdmin {
		t.Fatalf("Verify(fresh token) = %+v, %v", got, err)
	}

	advance(time.Hour)
	if _, err := issuer.Verify(token); err != nil {
		t.Errorf("Verify at the expiry instant: %v, want valid", err)
	}
	advance(time.Second)
	if _, err := issuer.Verify(token); !errors.Is(err, ErrTokenExpired) {
		t.Errorf("Verify after expiry error = %v, want ErrTokenExpired", err)
	}
}

func TestTokenIssuer_VerifyRejectsForgery(t *testing.T) {
	issuer := NewTokenIssuer([]byte("secret"), 0)
	other := NewTokenIssuer([]byte("other secret"), 0)
	token, _, err := other.Issue(&models.User{ID: "u1", Role: models.RoleMember})
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := strings.Cut(token, ".")
	for _, bad := range []string{"", "no-dot", token, body + ".", body + ".AAAA"} {
		if _, err := issuer.Verify(bad); !errors.Is(err, ErrTokenInvalid) {
			t.Errorf("Verify(%q) error = %v, want ErrTokenInvalid", bad, err)
		}
	}
	if issuer.TTL() != DefaultTokenTTL {
		t.Errorf("TTL() = %v, want the default %v", issuer.TTL(), DefaultTokenTTL)
	}
}

func TestVerifyPassword(t *testing.T) {
	hash, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		hash, password string
		want           bool
	}{
		{hash, "correct horse", true},
		{hash, "wrong horse", false},
		{"garbage", "correct horse", false},
		{"0$AAAA$AAAA", "correct horse", false},
	}
	for _, tt := range tests {
		if got := VerifyPassword(tt.hash, tt.password); got != tt.want {
			t.Errorf("VerifyPassword(%q, %q) = %v, want %v", tt.hash, tt.password, got, tt.want)
		}
	}
}
