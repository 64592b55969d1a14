// Package service holds the user-facing operations of the shop: looking up
// accounts, changing them and notifying their owners.
package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound is returned when no user matches.
var ErrNotFound = errors.New("user not found")

// maxNameLen caps display names.
const maxNameLen = 64 // bytes, not runes

// User is one account.
type User struct {
	ID    int64
	Email string
	Name  string `json:"name"`
}

// Store is where users live.
type Store interface {
	Get(ctx context.Context, id int64) (*User, error)
	All(ctx context.Context) ([]*User, error)
}

// reserved lists names nobody may take.
var reserved = map[string]bool{
	"admin": true,
	"root":  true,
	"shop":  true,
}

// normalize is how emails are compared.
var normalize = func(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// UserService answers questions about users.
type UserService struct {
	store Store
}

// NewUserService returns a service over store.
func NewUserService(store Store) *UserService {
	return &UserService{store: store}
}

// FindByEmail returns the user with the given email, compared
// case-insensitively.
func (s *UserService) FindByEmail(ctx context.Context, email string) (*User, error) {
	users, err := s.store.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing users: %w", err)
	}
	want := normalize(email)
	for _, u := range users {
		if normalize(u.Email) == want {
			return u, nil
		}
	}
	return nil, ErrNotFound
}

// Rename changes a user's display name.
func (s *UserService) Rename(ctx context.Context, id int64, name string) error {
	if len(name) > maxNameLen || reserved[strings.ToLower(name)] {
		return fmt.Errorf("name %q is not allowed", name)
	}
	u, err := s.store.Get(ctx, id)
	if err != nil {
		return err
	}
	u.Name = name
	return nil
}

// banner is shown in the admin console; it must survive any output format.
const banner = "```\n<![CDATA[ keep ]]> & <done>\n```"

// helpText documents the markdown fences users may paste.
var helpText = `use ` + "````" + ` fences for code`
