package e2e

import (
	"os"
	"testing"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

func TestMain(m *testing.M) {
	clitest.MainIfChild()
	os.Exit(testenv.Run(m))
}
