// Package httpapi exposes the user service over HTTP with JSON bodies:
// registration, login and user lookup.
package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/acme/usersvc/internal/auth"
	"github.com/acme/usersvc/internal/models"
	"github.com/acme/usersvc/internal/service"
)

// maxBodyBytes caps a request body.
const maxBodyBytes = 1 << 20

// Handlers serves the API endpoints.
type Handlers struct {
	users  *service.UserService
	tokens *auth.TokenIssuer
	log    *slog.Logger
}

// NewHandlers returns handlers backed by the user service and token issuer.
func NewHandlers(users *service.UserService, tokens *auth.TokenIssuer, log *slog.Logger) *Handlers {
	return &Handlers{users: users, tokens: tokens, log: log}
}

// loginRequest is the body of POST /login.
type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// loginResponse is the answer to a successful login.
type loginResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Login checks the email and password and answers with a session token.
// Unknown emails and wrong passwords both get 401, so that the endpoint
// does not reveal which accounts exist.
func (h *Handlers) Login(w http.ResponseWriter, r *http.Request) {
	var req loginRequest
	if !h.decode(w, r, &req) {
		return
	}
	u, err := h.users.FindByEmail(r.Context(), req.Email)
	var verr *service.ValidationError
	switch {
	case errors.Is(err, service.ErrUserNotFound), errors.As(err, &verr):
		writeError(w, http.StatusUnauthorized, "invalid email or password")
		return
	case err != nil:
		h.internalError(w, "login", err)
		return
	}
	if !auth.VerifyPassword(u.PasswordHash, req.Password) {
		writeError(w, http.StatusUnauthorized, "invalid email or password")
		return
	}
	token, sess, err := h.tokens.Issue(u)
	if err != nil {
		h.internalError(w, "login", err)
		return
	}
	writeJSON(w, http.StatusOK, loginResponse{Token: token, ExpiresAt: sess.ExpiresAt})
}

// registerRequest is the body of POST /users.
type registerRequest struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Password string `json:"password"`
}

// Register creates an account and answers 201 with the new user.
func (h *Handlers) Register(w http.ResponseWriter, r *http.Request) {
	var req registerRequest
	if !h.decode(w, r, &req) {
		return
	}
	u, err := h.users.Register(r.Context(), service.RegisterRequest{Email: req.Email, Name: req.Name, Password: req.Password})
	var verr *service.ValidationError
	switch {
	case errors.As(err, &verr):
		writeError(w, http.StatusBadRequest, verr.Error())
		return
	case errors.Is(err, service.ErrEmailTaken):
		writeError(w, http.StatusConflict, err.Error())
		return
	case err != nil:
		h.internalError(w, "register", err)
		return
	}
	writeJSON(w, http.StatusCreated, u)
}

// GetUser answers GET /users/{id}. Members may read only their own
// account; admins may read any.
func (h *Handlers) GetUser(w http.ResponseWriter, r *http.Request) {
	sess, ok := auth.SessionFrom(r.Context())
	if !ok {
		writeError(w, http.StatusUnauthorized, "not signed in")
		return
	}
	id := r.PathValue("id")
	if id != sess.UserID && sess.Role != models.RoleAdmin {
		writeError(w, http.StatusForbidden, "not allowed to read this user")
		return
	}
	u, err := h.users.FindByID(r.Context(), id)
	switch {
	case errors.Is(err, service.ErrUserNotFound):
		writeError(w, http.StatusNotFound, "user not found")
		return
	case err != nil:
		h.internalError(w, "get user", err)
		return
	}
	writeJSON(w, http.StatusOK, u)
}

// decode reads a JSON body into v, answering 400 and returning false when
// it cannot.
func (h *Handlers) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "malformed request body")
		return false
	}
	return true
}

// internalError logs err and answers 500 without leaking details.
func (h *Handlers) internalError(w http.ResponseWriter, op string, err error) {
	h.log.Error("request failed", "op", op, "err", err)
	writeError(w, http.StatusInternalServerError, "internal error")
}

// errorResponse is the body of every error answer.
type errorResponse struct {
	Error string `json:"error"`
}

// writeError writes a JSON error body with the given status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorResponse{Error: msg})
}

// writeJSON writes v as a JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
