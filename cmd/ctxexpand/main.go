// Command ctxexpand finds the code a task needs in a Go or Rust repository
// and packs it into a context bundle that fits a token budget.
package main

import (
	"os"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
