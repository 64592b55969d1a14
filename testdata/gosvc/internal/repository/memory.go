package repository

import (
	"context"
	"sort"
	"sync"

	"github.com/acme/usersvc/internal/models"
)

// MemoryRepository is a UserRepository held in memory. It is safe for
// concurrent use and hands out copies, so callers cannot change stored
// users behind its back.
type MemoryRepository struct {
	mu      sync.RWMutex
	byID    map[string]*models.User
	byEmail map[string]string // normalised email → user ID
}

// NewMemoryRepository returns an empty repository.
func NewMemoryRepository() *MemoryRepository {
	return &MemoryRepository{
		byID:    make(map[string]*models.User),
		byEmail: make(map[string]string),
	}
}

// GetByEmail looks the user up by normalised email.
func (r *MemoryRepository) GetByEmail(ctx context.Context, email string) (*models.User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.byEmail[models.NormalizeEmail(email)]
	if !ok {
		return nil, ErrNotFound
	}
	return clone(r.byID[id]), nil
}

// GetByID looks the user up by ID.
func (r *MemoryRepository) GetByID(ctx context.Context, id string) (*models.User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	u, ok := r.byID[id]
	if !ok {
		return nil, ErrNotFound
	}
	return clone(u), nil
}

// Save stores a copy of u, keeping the email index in step when the email
// changes. It refuses an email that belongs to another user.
func (r *MemoryRepository) Save(ctx context.Context, u *models.User) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	email := models.NormalizeEmail(u.Email)
	r.mu.Lock()
	defer r.mu.Unlock()
	if owner, taken := r.byEmail[email]; taken && owner != u.ID {
		return ErrDuplicateEmail
	}
	if old, ok := r.byID[u.ID]; ok {
		delete(r.byEmail, models.NormalizeEmail(old.Email))
	}
	stored := clone(u)
	stored.Email = email
	r.byID[u.ID] = stored
	r.byEmail[email] = u.ID
	return nil
}

// Delete removes the user with the given ID.
func (r *MemoryRepository) Delete(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	u, ok := r.byID[id]
	if !ok {
		return ErrNotFound
	}
	delete(r.byEmail, models.NormalizeEmail(u.Email))
	delete(r.byID, id)
	return nil
}

// IDs returns the IDs of all stored users, sorted.
func (r *MemoryRepository) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.byID))
	for id := range r.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// clone returns a copy of u that shares no memory with it.
func clone(u *models.User) *models.User {
	c := *u
	return &c
}
