package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/engine"
	"github.com/ctxexpand/ctxexpand/index"
)

// Answering through a running server (ctxexpand serve).
//
// The command asks the root's server first, unless --no-server, another
// backend or --no-cache says otherwise. A server of another build, or
// started with other load options, or none at all: the command answers
// by itself, as it would without servers. The answer is byte for byte
// the one the command would print.

// resolvedDir is the cache directory the flags and environment choose.
func (c *cacheOptions) resolvedDir() (string, error) {
	if d := c.dir(); d != "" {
		return d, nil
	}
	return index.DefaultDir()
}

// errNoServerAnswer says the server did not answer; the command answers
// by itself.
var errNoServerAnswer = errors.New("no server answer")

// viaServer asks the root's server. It returns errNoServerAnswer when
// there is none or it cannot answer this query; any other error is the
// query's own.
func (o *expandOptions) viaServer(ctx context.Context, io *IO, preq engine.Request, load engine.LoadOptions) error {
	root := preq.Root
	if o.NoServer || o.Backend != engine.BackendBuiltin || o.Cache.Off {
		return errNoServerAnswer
	}
	cacheDir, err := o.Cache.resolvedDir()
	if err != nil {
		return errNoServerAnswer
	}
	paths := serve.PathsFor(cacheDir, root)
	if _, err := os.Stat(paths.Socket); err != nil {
		return errNoServerAnswer // the common case, without opening the index
	}
	st, err := index.Open(index.Options{Dir: cacheDir})
	if err != nil {
		return errNoServerAnswer
	}
	req := &serve.Request{Op: serve.OpQuery, Root: root, Program: st.ExecutableID(), LoadKey: load.Key(), Query: &preq,
		Timeout: o.Timeout, FilesOnly: o.FilesOnly, Explain: o.Explain}
	start := time.Now()
	resp, err := serve.Call(ctx, paths.Socket, req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		o.logServer(io, "no answer from the server (%v); answering locally", err)
		return errNoServerAnswer
	}
	switch resp.Code {
	case "":
	case serve.CodeFailed:
		return errors.New(resp.Error)
	default:
		o.logServer(io, "the server did not answer (%s: %s); answering locally", resp.Code, resp.Error)
		return errNoServerAnswer
	}
	if io.Log != nil {
		io.Log.Info("answered by the server", "phase", "server", "took", time.Since(start).Round(time.Microsecond),
			"server_took", resp.Took.Round(time.Microsecond), "generation", resp.Gen, "socket", paths.Socket)
	}
	return o.print(io, resp.Rendered)
}

func (o *expandOptions) logServer(io *IO, format string, args ...any) {
	if io.Log != nil {
		io.Log.Info(fmt.Sprintf(format, args...), "phase", "server")
	}
}
