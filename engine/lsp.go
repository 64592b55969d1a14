package engine

import (
	"context"
	"fmt"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/lsp"
)

// Backends of LoadOptions.Backend.
const (
	BackendBuiltin = "builtin"
	BackendLSP     = "lsp"
)

// checkBackend validates the backend choice and the server command line.
func (o *LoadOptions) checkBackend() error {
	switch o.Backend {
	case "", BackendBuiltin:
		return nil
	case BackendLSP:
		if o.LSPCmd != "" {
			if _, err := lsp.ParseCommand(o.LSPCmd); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown analysis backend %q: use %s or %s", o.Backend, BackendBuiltin, BackendLSP)
}

// loadLang runs the loader of one language: through a language server
// first with BackendLSP, falling back to the built-in loader, with a
// problem that says why, when the server fails.
func loadLang(ctx context.Context, l loader, root string, opt LoadOptions) (*analyze.Facts, error) {
	if opt.Backend != BackendLSP {
		return l.load(ctx, root, opt)
	}
	facts, err := lsp.Load(ctx, root, lspOptions(l.lang, opt))
	if err == nil {
		return facts, nil
	}
	if opt.Logf != nil {
		opt.Logf("lsp backend failed for %s: %v", l.lang, err)
	}
	facts, ferr := l.load(ctx, root, opt)
	if facts != nil {
		facts.Problemf(analyze.ProblemLoad, "", 0, "lsp backend failed: %v; using the built-in analysis", err)
	}
	return facts, ferr
}

// lspOptions configures the language server for lang. A --lsp-cmd that
// names a server of another language (gopls in a Rust crate of a mixed
// repository) leaves lang to its usual server.
func lspOptions(lang analyze.Lang, opt LoadOptions) lsp.Options {
	o := lsp.Options{
		Lang:         lang,
		SkipTests:    opt.SkipTests,
		Ignore:       opt.Ignore,
		AllowNetwork: opt.AllowNetwork,
		Logf:         opt.Logf,
	}
	if argv, err := lsp.ParseCommand(opt.LSPCmd); err == nil {
		if l := lsp.CommandLang(argv); l == lang || l == analyze.LangUnknown {
			o.Command = argv
		}
	}
	return o
}
