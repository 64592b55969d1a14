// Package repository stores users. UserRepository is the contract the
// service layer depends on; MemoryRepository keeps users in memory for
// tests and single-node demos, SQLRepository keeps them in a database.
package repository

import (
	"context"
	"errors"

	"github.com/acme/usersvc/internal/models"
)

// Errors every UserRepository returns; check them with errors.Is.
var (
	// ErrNotFound means no user matches the lookup key.
	ErrNotFound = errors.New("user not found")
	// ErrDuplicateEmail means another user already holds the email.
	ErrDuplicateEmail = errors.New("email already registered")
)

// UserRepository loads and stores users. Implementations compare emails in
// their normalised form (models.NormalizeEmail).
type UserRepository interface {
	// GetByEmail returns the user with the given email or ErrNotFound.
	GetByEmail(ctx context.Context, email string) (*models.User, error)
	// GetByID returns the user with the given ID or ErrNotFound.
	GetByID(ctx context.Context, id string) (*models.User, error)
	// Save inserts the user or replaces the stored user with the same ID.
	Save(ctx context.Context, u *models.User) error
	// Delete removes the user with the given ID; deleting a missing user
	// returns ErrNotFound.
	Delete(ctx context.Context, id string) error
}
