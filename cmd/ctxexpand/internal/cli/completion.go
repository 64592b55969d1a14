package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/expand"
)

// Values of the flags that shells complete. cobra's own completion
// command (ctxexpand completion bash|zsh|fish|powershell) writes the
// scripts that ask for them.
var (
	bundleFormats = []string{"markdown", "xml", "json", "plain"}
	tokenizers    = []string{"o200k", "cl100k", "claude", "estimate"}
	truncations   = []string{"signature-first", "bookend"}
	planners      = []string{"heuristic", "ollama"}
)

// registerCompletions completes the named flags of cmd with fixed values,
// and --strategy, when cmd has it, with strategy names.
func registerCompletions(cmd *cobra.Command, values map[string][]string) {
	for name, vs := range values {
		if cmd.Flags().Lookup(name) == nil {
			continue
		}
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(vs, cobra.ShellCompDirectiveNoFileComp))
	}
	if cmd.Flags().Lookup("strategy") != nil {
		_ = cmd.RegisterFlagCompletionFunc("strategy", completeStrategy)
	}
}

// completeStrategy offers auto and every strategy name; after a "+" it
// offers the names that can follow ("focused+" → "focused+semantic", …).
func completeStrategy(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	names := expand.Names()
	i := strings.LastIndexByte(toComplete, '+')
	if i < 0 {
		return append([]string{"auto"}, names...), cobra.ShellCompDirectiveNoFileComp
	}
	prefix, chosen := toComplete[:i+1], strings.Split(toComplete[:i], "+")
	var out []string
	for _, n := range names {
		if !slices.Contains(chosen, n) {
			out = append(out, prefix+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
