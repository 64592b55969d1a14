package repository

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/acme/usersvc/internal/models"
)

// Queries used by SQLRepository. They use PostgreSQL-style placeholders.
const (
	selectByEmailQuery = `SELECT id, email, name, role, password_hash, created_at FROM users WHERE email = $1`
	selectByIDQuery    = `SELECT id, email, name, role, password_hash, created_at FROM users WHERE id = $1`
	upsertQuery        = `INSERT INTO users (id, email, name, role, password_hash, created_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (id) DO UPDATE SET email = $2, name = $3, role = $4, password_hash = $5`
	deleteQuery = `DELETE FROM users WHERE id = $1`
)

// SQLRepository is a UserRepository backed by a database/sql handle. The
// users table must have a unique index on email.
type SQLRepository struct {
	db *sql.DB
}

// NewSQLRepository returns a repository that runs its queries on db.
func NewSQLRepository(db *sql.DB) *SQLRepository {
	return &SQLRepository{db: db}
}

// GetByEmail looks the user up by normalised email.
func (r *SQLRepository) GetByEmail(ctx context.Context, email string) (*models.User, error) {
	row := r.db.QueryRowContext(ctx, selectByEmailQuery, models.NormalizeEmail(email))
	return scanUser(row)
}

// GetByID looks the user up by ID.
func (r *SQLRepository) GetByID(ctx context.Context, id string) (*models.User, error) {
	return scanUser(r.db.QueryRowContext(ctx, selectByIDQuery, id))
}

// Save inserts or updates the user.
func (r *SQLRepository) Save(ctx context.Context, u *models.User) error {
	_, err := r.db.ExecContext(ctx, upsertQuery,
		u.ID, models.NormalizeEmail(u.Email), u.Name, string(u.Role), u.PasswordHash, u.CreatedAt)
	if err != nil && isUniqueViolation(err) {
		return ErrDuplicateEmail
	}
	if err != nil {
		return fmt.Errorf("saving user %s: %w", u.ID, err)
	}
	return nil
}

// Delete removes the user with the given ID.
func (r *SQLRepository) Delete(ctx context.Context, id string) error {
	res, err := r.db.ExecContext(ctx, deleteQuery, id)
	if err != nil {
		return fmt.Errorf("deleting user %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("deleting user %s: %w", id, err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// scanUser reads one users row, mapping "no rows" to ErrNotFound.
func scanUser(row *sql.Row) (*models.User, error) {
	var u models.User
	var role string
	err := row.Scan(&u.ID, &u.Email, &u.Name, &role, &u.PasswordHash, &u.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading user: %w", err)
	}
	u.Role = models.Role(role)
	return &u, nil
}

// isUniqueViolation recognises a unique-constraint error without importing
// a driver: drivers agree on little beyond the wording.
func isUniqueViolation(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unique") || strings.Contains(msg, "duplicate key")
}
