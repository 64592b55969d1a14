package e2e

import (
	"os"
	"testing"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
)

func TestMain(m *testing.M) {
	clitest.MainIfChild()
	os.Exit(m.Run())
}
