package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/acme/usersvc/internal/auth"
)

// Server is the HTTP front of the user service.
type Server struct {
	srv *http.Server
	log *slog.Logger
}

// NewServer returns a server listening on addr that routes requests to h,
// guarding the user endpoints with bearer-token authentication.
func NewServer(addr string, h *Handlers, verifier auth.TokenVerifier, log *slog.Logger) *Server {
	return &Server{
		srv: &http.Server{
			Addr:              addr,
			Handler:           routes(h, verifier),
			ReadHeaderTimeout: 5 * time.Second,
		},
		log: log,
	}
}

// routes builds the request multiplexer.
func routes(h *Handlers, verifier auth.TokenVerifier) http.Handler {
	requireAuth := auth.Middleware(verifier)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login", h.Login)
	mux.HandleFunc("POST /users", h.Register)
	mux.Handle("GET /users/{id}", requireAuth(http.HandlerFunc(h.GetUser)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	return mux
}

// Start listens on the configured address and serves until Shutdown is
// called. It returns nil after a graceful shutdown.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.srv.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.srv.Addr, err)
	}
	return s.Serve(ln)
}

// Serve serves on an existing listener; tests use it with a random port.
func (s *Server) Serve(ln net.Listener) error {
	s.log.Info("http server started", "addr", ln.Addr().String())
	if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving http: %w", err)
	}
	return nil
}

// Shutdown stops accepting connections and waits, until ctx is done, for
// the requests in flight to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.log.Info("http server shutting down")
	if err := s.srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutting down http server: %w", err)
	}
	return nil
}
