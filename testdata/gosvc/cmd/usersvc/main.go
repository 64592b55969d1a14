// Command usersvc runs the user service: it reads its configuration from
// the environment, wires the repository, service and HTTP server together
// and serves until it receives SIGINT or SIGTERM, then shuts down
// gracefully.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/acme/usersvc/internal/auth"
	"github.com/acme/usersvc/internal/config"
	"github.com/acme/usersvc/internal/httpapi"
	"github.com/acme/usersvc/internal/repository"
	"github.com/acme/usersvc/internal/service"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), log); err != nil {
		log.Error("usersvc failed", "err", err)
		os.Exit(1)
	}
}

// run starts the server and blocks until a shutdown signal arrives or the
// server fails.
func run(ctx context.Context, log *slog.Logger) error {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return fmt.Errorf("loading configuration: %w", err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	repo := repository.NewMemoryRepository()
	users := service.NewUserService(repo)
	tokens := auth.NewTokenIssuer(cfg.TokenSecret, cfg.TokenTTL)
	handlers := httpapi.NewHandlers(users, tokens, log)
	srv := httpapi.NewServer(cfg.ListenAddr, handlers, tokens, log)

	errc := make(chan error, 1)
	go func() { errc <- srv.Start() }()

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return <-errc
}
