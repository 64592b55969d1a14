package pack_test

import (
	"os"
	"testing"

	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// TestMain gives the tests a home of their own (see package testenv).
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
