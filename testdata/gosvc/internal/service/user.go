// Package service holds the business rules of the user service. It sits
// between the HTTP layer and the repository: it validates input, maps
// storage errors to service errors and never exposes password hashes.
package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/acme/usersvc/internal/auth"
	"github.com/acme/usersvc/internal/models"
	"github.com/acme/usersvc/internal/repository"
)

// MinPasswordLength is the shortest password Register accepts.
const MinPasswordLength = 8

// UserService implements user lookup, registration and authentication on
// top of a UserRepository.
type UserService struct {
	repo repository.UserRepository
	now  func() time.Time
}

// NewUserService returns a service that stores users in repo.
func NewUserService(repo repository.UserRepository) *UserService {
	return &UserService{repo: repo, now: time.Now}
}

// FindByEmail returns the user registered with email. The address is
// normalised first, so lookups ignore case and surrounding space.
// It returns ErrUserNotFound when no such user exists.
func (s *UserService) FindByEmail(ctx context.Context, email string) (*models.User, error) {
	email = models.NormalizeEmail(email)
	if err := models.ValidateEmail(email); err != nil {
		return nil, invalid("email", err)
	}
	u, err := s.repo.GetByEmail(ctx, email)
	if errors.Is(err, repository.ErrNotFound) {
		return nil, ErrUserNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("finding user by email: %w", err)
	}
	return u, nil
}

// FindByID returns the user with the given ID, or ErrUserNotFound.
func (s *UserService) FindByID(ctx context.Context, id string) (*models.User, error) {
	if id == "" {
		return nil, invalid("id", errors.New("empty"))
	}
	u, err := s.repo.GetByID(ctx, id)
	if errors.Is(err, repository.ErrNotFound) {
		return nil, ErrUserNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("finding user %s: %w", id, err)
	}
	return u, nil
}

// RegisterRequest is what a new user supplies.
type RegisterRequest struct {
	Email    string
	Name     string
	Password string
}

// Register creates a member account. It validates the request, hashes the
// password and stores the user, returning ErrEmailTaken when the email is
// already registered.
func (s *UserService) Register(ctx context.Context, req RegisterRequest) (*models.User, error) {
	if len(req.Password) < MinPasswordLength {
		return nil, invalid("password", fmt.Errorf("must be at least %d characters", MinPasswordLength))
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, fmt.Errorf("registering user: %w", err)
	}
	id, err := newID()
	if err != nil {
		return nil, fmt.Errorf("registering user: %w", err)
	}
	u := &models.User{
		ID:           id,
		Email:        models.NormalizeEmail(req.Email),
		Name:         req.Name,
		Role:         models.RoleMember,
		PasswordHash: hash,
		CreatedAt:    s.now().UTC(),
	}
	if err := u.Validate(); err != nil {
		return nil, invalid("user", err)
	}
	switch err := s.repo.Save(ctx, u); {
	case errors.Is(err, repository.ErrDuplicateEmail):
		return nil, ErrEmailTaken
	case err != nil:
		return nil, fmt.Errorf("registering user: %w", err)
	}
	return u, nil
}

// newID returns a random 128-bit user ID in hex.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating user id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
