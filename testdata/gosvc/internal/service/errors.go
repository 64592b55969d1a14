package service

import (
	"errors"
	"fmt"
)

// Errors returned by UserService; check them with errors.Is.
var (
	// ErrUserNotFound means no user matches the email or ID.
	ErrUserNotFound = errors.New("user not found")
	// ErrEmailTaken means registration failed because the email is in use.
	ErrEmailTaken = errors.New("email already registered")
)

// ValidationError reports input that UserService refused, naming the field.
type ValidationError struct {
	Field string
	Err   error
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid %s: %v", e.Field, e.Err)
}

// Unwrap returns the underlying validation error.
func (e *ValidationError) Unwrap() error { return e.Err }

// invalid wraps err as a ValidationError for field.
func invalid(field string, err error) error {
	return &ValidationError{Field: field, Err: err}
}
