package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X …/cli.version=v1.2.3") for
// release builds; otherwise the module's build info is used.
var version = ""

func newVersionCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit it was built from and the Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(io.Out, versionString())
			return nil
		},
	}
}

func versionString() string {
	v, commit, modified, goVersion := version, "", false, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if v == "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	s := "ctxexpand " + v
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		s += " (" + commit
		if modified {
			s += ", modified"
		}
		s += ")"
	}
	if goVersion != "" {
		s += " " + goVersion
	}
	return s
}

// addVersionFlag gives the root command --version, which prints the line
// the version command prints. The flag is declared here so that cobra
// does not also take -v for it.
func addVersionFlag(root *cobra.Command) {
	root.Version = versionString()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().Bool("version", false, "print the version, the commit it was built from and the Go version, as ctxexpand version does")
}
