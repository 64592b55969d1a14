package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acme/usersvc/internal/auth"
	"github.com/acme/usersvc/internal/repository"
	"github.com/acme/usersvc/internal/service"
)

// newTestAPI returns a test server over an in-memory repository with one
// registered user, ada@example.com, whose password is "correct horse".
func newTestAPI(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	users := service.NewUserService(repository.NewMemoryRepository())
	u, err := users.Register(context.Background(), service.RegisterRequest{Email: "ada@example.com", Name: "Ada", Password: "correct horse"})
	if err != nil {
		t.Fatal(err)
	}
	tokens := auth.NewTokenIssuer([]byte("test secret"), time.Hour)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(routes(NewHandlers(users, tokens, log), tokens))
	t.Cleanup(srv.Close)
	return srv, u.ID
}

// post sends a JSON body and returns the response status and body.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHandlers_Login(t *testing.T) {
	srv, _ := newTestAPI(t)
	tests := []struct {
		name       string
		body       string
		wantStatus int
	}{
		{"ok", `{"email":"ADA@example.com","password":"correct horse"}`, http.StatusOK},
		{"wrong password", `{"email":"ada@example.com","password":"nope"}`, http.StatusUnauthorized},
		{"unknown user", `{"email":"bob@example.com","password":"correct horse"}`, http.StatusUnauthorized},
		{"malformed email", `{"email":"bob","password":"correct horse"}`, http.StatusUnauthorized},
		{"bad json", `{"email":`, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv.URL+"/login", tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status = %d, want %d (body %s)", status, tt.wantStatus, body)
			}
			if status == http.StatusOK && !strings.Contains(body, `"token"`) {
				t.Errorf("login response has no token: %s", body)
			}
		})
	}
}

func TestHandlers_GetUser(t *testing.T) {
	srv, id := newTestAPI(t)
	_, body := post(t, srv.URL+"/login", `{"email":"ada@example.com","password":"correct horse"}`)
	var login loginResponse
	if err := json.Unmarshal([]byte(body), &login); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, token string
		wantStatus        int
	}{
		{"own account", "/users/" + id, login.Token, http.StatusOK},
		{"someone else", "/users/other", login.Token, http.StatusForbidden},
		{"no token", "/users/" + id, "", http.StatusUnauthorized},
		{"forged token", "/users/" + id, "x.y", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("GET %s status = %d, want %d", tt.path, resp.StatusCode, tt.wantStatus)
			}
		})
	}
}
