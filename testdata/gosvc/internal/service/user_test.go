package service

import (
	"context"
	"errors"
	"testing"

	"github.com/acme/usersvc/internal/models"
	"github.com/acme/usersvc/internal/repository"
)

// newTestService returns a service over an empty in-memory repository.
func newTestService(t *testing.T) (*UserService, *repository.MemoryRepository) {
	t.Helper()
	repo := repository.NewMemoryRepository()
	return NewUserService(repo), repo
}

func TestUserService_FindByEmail(t *testing.T) {
	ctx := context.Background()
	svc, repo := newTestService(t)
	stored := &models.User{ID: "u1", Email: "ada@example.com", Name: "Ada", Role: models.RoleMember}
	if err := repo.Save(ctx, stored); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		email   string
		wantID  string
		wantErr error
	}{
		{"exact", "ada@example.com", "u1", nil},
		{"case and space", "  Ada@Example.COM ", "u1", nil},
		{"unknown", "bob@example.com", "", ErrUserNotFound},
		{"malformed", "not-an-email", "", models.ErrInvalidEmail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := svc.FindByEmail(ctx, tt.email)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("FindByEmail(%q) error = %v, want %v", tt.email, err, tt.wantErr)
			}
			if tt.wantErr == nil && u.ID != tt.wantID {
				t.Errorf("FindByEmail(%q) = user %q, want %q", tt.email, u.ID, tt.wantID)
			}
		})
	}
}

func TestUserService_FindByID(t *testing.T) {
	ctx := context.Background()
	svc, repo := newTestService(t)
	if err := repo.Save(ctx, &models.User{ID: "u1", Email: "ada@example.com", Name: "Ada", Role: models.RoleMember}); err != nil {
		t.Fatal(err)
	}
	if u, err := svc.FindByID(ctx, "u1"); err != nil || u.Name != "Ada" {
		t.Errorf("FindByID(u1) = %+v, %v", u, err)
	}
	if _, err := svc.FindByID(ctx, "nope"); !errors.Is(err, ErrUserNotFound) {
		t.Errorf("FindByID(nope) error = %v, want ErrUserNotFound", err)
	}
	var verr *ValidationError
	if _, err := svc.FindByID(ctx, ""); !errors.As(err, &verr) || verr.Field != "id" {
		t.Errorf("FindByID(\"\") error = %v, want a ValidationError on id", err)
	}
}

func TestUserService_Register(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	u, err := svc.Register(ctx, RegisterRequest{Email: "Grace@Example.com", Name: "Grace", Password: "correct horse"})
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "grace@example.com" || u.Role != models.RoleMember || u.PasswordHash == "" {
		t.Errorf("Register stored %+v", u)
	}
	found, err := svc.FindByEmail(ctx, "grace@example.com")
	if err != nil || found.ID != u.ID {
		t.Errorf("FindByEmail after Register = %+v, %v", found, err)
	}
	if _, err := svc.Register(ctx, RegisterRequest{Email: "grace@example.com", Name: "G", Password: "another one"}); !errors.Is(err, ErrEmailTaken) {
		t.Errorf("second Register error = %v, want ErrEmailTaken", err)
	}
	var verr *ValidationError
	if _, err := svc.Register(ctx, RegisterRequest{Email: "x@example.com", Name: "X", Password: "short"}); !errors.As(err, &verr) || verr.Field != "password" {
		t.Errorf("short password error = %v, want a ValidationError on password", err)
	}
}
