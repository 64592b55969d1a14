// Package config reads the service's settings from the environment.
package config

import (
	"errors"
	"fmt"
	"time"
)

// Environment variables read by Load.
const (
	EnvListenAddr      = "USERSVC_LISTEN_ADDR"
	EnvTokenSecret     = "USERSVC_TOKEN_SECRET"
	EnvTokenTTL        = "USERSVC_TOKEN_TTL"
	EnvShutdownTimeout = "USERSVC_SHUTDOWN_TIMEOUT"
)

// Defaults used when a variable is unset.
const (
	DefaultListenAddr      = ":8080"
	DefaultTokenTTL        = 24 * time.Hour
	DefaultShutdownTimeout = 10 * time.Second
)

// ErrMissingSecret means USERSVC_TOKEN_SECRET is unset; tokens cannot be
// signed without it.
var ErrMissingSecret = errors.New(EnvTokenSecret + " is not set")

// Config is the service's configuration.
type Config struct {
	// ListenAddr is the TCP address the HTTP server listens on.
	ListenAddr string
	// TokenSecret signs session tokens.
	TokenSecret []byte
	// TokenTTL is how long a login token stays valid.
	TokenTTL time.Duration
	// ShutdownTimeout bounds the graceful shutdown of the HTTP server.
	ShutdownTimeout time.Duration
}

// Load builds a Config from the variables that getenv returns (os.Getenv
// in production), applying defaults and checking durations.
func Load(getenv func(string) string) (Config, error) {
	cfg := Config{
		ListenAddr:      DefaultListenAddr,
		TokenTTL:        DefaultTokenTTL,
		ShutdownTimeout: DefaultShutdownTimeout,
	}
	if v := getenv(EnvListenAddr); v != "" {
		cfg.ListenAddr = v
	}
	secret := getenv(EnvTokenSecret)
	if secret == "" {
		return Config{}, ErrMissingSecret
	}
	cfg.TokenSecret = []byte(secret)
	var err error
	if cfg.TokenTTL, err = duration(getenv, EnvTokenTTL, DefaultTokenTTL); err != nil {
		return Config{}, err
	}
	if cfg.ShutdownTimeout, err = duration(getenv, EnvShutdownTimeout, DefaultShutdownTimeout); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// duration parses the variable name as a positive time.Duration ("90m"),
// returning def when it is unset.
func duration(getenv func(string) string, name string, def time.Duration) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%s: must be positive, got %s", name, v)
	}
	return d, nil
}
