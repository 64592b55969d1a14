package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxexpand/ctxexpand/config"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
)

// configFlags are the flags that override keys of the configuration file:
// the flag's name, the key, and how the flag's value lands in settings.
var configFlags = []struct {
	flag, key string
	set       func(o *expandOptions, s *config.Settings)
}{
	{"budget", "budget", func(o *expandOptions, s *config.Settings) { s.Budget = o.Budget }},
	{"tokenizer", "tokenizer", func(o *expandOptions, s *config.Settings) { s.Tokenizer = o.Tokenizer }},
	{"format", "format", func(o *expandOptions, s *config.Settings) { s.Format = o.Format }},
	{"strategy", "strategy", func(o *expandOptions, s *config.Settings) { s.Strategy = o.Strategy }},
	{"depth", "depth", func(o *expandOptions, s *config.Settings) { s.Depth = o.Depth }},
	{"max-files", "max_files", func(o *expandOptions, s *config.Settings) { s.MaxFiles = o.MaxFiles }},
	{"no-tests", "no_tests", func(o *expandOptions, s *config.Settings) { s.NoTests = o.NoTests }},
	{"timeout", "timeout", func(o *expandOptions, s *config.Settings) { s.Timeout = o.Timeout }},
	{"scip", "scip", func(o *expandOptions, s *config.Settings) { s.SCIP = append([]string(nil), o.SCIP...) }},
}

// settings resolves the effective settings for a run at root: defaults,
// then the configuration file (--config, or .ctxexpand.toml at the root),
// then the flags the user set. A bad or missing configuration file is a
// usage error naming the file, line and key.
func (o *expandOptions) settings(root string) (config.Settings, error) {
	s := config.Defaults()
	path := o.Config
	if path == "" {
		if found := config.Find(root); found != "" {
			path = displayPath(found)
		}
	}
	if path != "" {
		f, err := config.Load(path)
		if errors.Is(err, config.ErrNotFound) {
			return s, usagef("--config %s: no such file", path)
		}
		if err != nil {
			return s, usageError{err}
		}
		f.Apply(&s)
	}
	for _, cf := range configFlags {
		if o.changed != nil && o.changed(cf.flag) {
			cf.set(o, &s)
			s.SetOrigin(cf.key, "flag --"+cf.flag)
		}
	}
	return s, nil
}

// applyConfig resolves the settings, writes them back into the options
// that the run reads, and gives the load options they ask for: the
// ignore rules and the key that names them in the index, SCIP indexes
// (engine.ConfigLoad), the history prior, and io's log. Every command
// that loads a repository with the configuration gets its load options
// here.
func (o *expandOptions) applyConfig(io *IO, root string) (config.Settings, engine.LoadOptions, error) {
	s, err := o.settings(root)
	if err != nil {
		return s, engine.LoadOptions{}, err
	}
	o.Budget, o.Tokenizer, o.Format, o.Strategy = s.Budget, s.Tokenizer, s.Format, s.Strategy
	o.Depth, o.MaxFiles, o.NoTests, o.Timeout = s.Depth, s.MaxFiles, s.NoTests, s.Timeout
	load, err := engine.ConfigLoad(root, s)
	if err != nil {
		return s, engine.LoadOptions{}, usageError{err}
	}
	load.NoHistory, load.NoSCIP, load.Logger = o.NoHistory, o.NoSCIP, io.Log
	return s, load, nil
}

// residentConfig is the Configure of a resident engine at root (serve
// and mcp): the load options o's configuration asks for (applyConfig),
// read again whenever it changes, with skipTests, loading through st
// (when not nil) with its notices logged.
func (o *expandOptions) residentConfig(io *IO, root string, skipTests bool, st *index.Store, logf func(string, ...any)) func() (engine.LoadOptions, error) {
	return func() (engine.LoadOptions, error) {
		_, load, err := o.applyConfig(io, root)
		if err != nil {
			return load, err
		}
		load.SkipTests = skipTests
		if st != nil {
			load.Index = st
			load.Notice = func(msg string) { logf("%s", msg) }
		}
		return load, nil
	}
}

// displayPath names a file relative to the working directory when it lies
// below it, for messages and origins.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

func newConfigCmd(io *IO) *cobra.Command {
	o := newExpandOptions()
	cmd := &cobra.Command{
		Use:   "config [flags]",
		Short: "Print the effective configuration and where each value comes from",
		Long: `config prints the settings a run would use, as a .ctxexpand.toml file: the
defaults, overridden by the configuration file (.ctxexpand.toml at the root, or
--config FILE), overridden by the flags given here. A comment after each value
says where it came from. A configuration file with unknown keys or bad values
is reported with its file, line and key.`,
		Example: `  ctxexpand config
  ctxexpand config --root ../service --budget 8000
  ctxexpand config > .ctxexpand.toml   # start a configuration file from the defaults`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := resolveRoot(o.Root)
			if err != nil {
				return err
			}
			s, _, err := o.applyConfig(io, root)
			if err != nil {
				return err
			}
			return s.WriteTOML(io.Out)
		},
	}
	o.addFlags(cmd)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}
