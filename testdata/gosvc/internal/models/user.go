// Package models holds the values the user service stores and passes
// around: users with their roles, and login sessions.
package models

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
)

// Role is what a user is allowed to do.
type Role string

// The roles a user can hold.
const (
	RoleMember Role = "member" // an ordinary account
	RoleAdmin  Role = "admin"  // may read and manage every account
)

// MaxNameLength bounds a display name, in bytes.
const MaxNameLength = 100

// Validation errors returned by ValidateEmail and User.Validate.
var (
	ErrInvalidEmail = errors.New("invalid email address")
	ErrInvalidName  = errors.New("invalid name")
	ErrInvalidRole  = errors.New("invalid role")
)

// Valid reports whether r is one of the known roles.
func (r Role) Valid() bool {
	switch r {
	case RoleMember, RoleAdmin:
		return true
	}
	return false
}

// User is one account of the service.
type User struct {
	ID           string    `json:"id"`
	Email        string    `json:"email"` // always normalised, see NormalizeEmail
	Name         string    `json:"name"`
	Role         Role      `json:"role"`
	PasswordHash string    `json:"-"`
	CreatedAt    time.Time `json:"created_at"`
}

// IsAdmin reports whether the user holds the admin role.
func (u *User) IsAdmin() bool { return u.Role == RoleAdmin }

// Validate checks the fields a stored user must have: a well-formed
// normalised email, a non-empty name of bounded length and a known role.
func (u *User) Validate() error {
	if err := ValidateEmail(u.Email); err != nil {
		return err
	}
	if u.Email != NormalizeEmail(u.Email) {
		return fmt.Errorf("%w: %q is not normalised", ErrInvalidEmail, u.Email)
	}
	name := strings.TrimSpace(u.Name)
	if name == "" || len(name) > MaxNameLength {
		return fmt.Errorf("%w: must be 1 to %d characters", ErrInvalidName, MaxNameLength)
	}
	if !u.Role.Valid() {
		return fmt.Errorf("%w: %q", ErrInvalidRole, u.Role)
	}
	return nil
}

// NormalizeEmail returns the canonical form of an email address used as a
// lookup key: surrounding space removed and the whole address lower-cased.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// ValidateEmail reports whether email is a plain address ("name@host"),
// without a display name or angle brackets.
func ValidateEmail(email string) error {
	email = strings.TrimSpace(email)
	if email == "" {
		return fmt.Errorf("%w: empty", ErrInvalidEmail)
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return fmt.Errorf("%w: %q", ErrInvalidEmail, email)
	}
	if !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") {
		return fmt.Errorf("%w: %q has no domain", ErrInvalidEmail, email)
	}
	return nil
}
