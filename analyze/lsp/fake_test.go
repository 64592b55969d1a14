package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// The test binary doubles as a fake language server: with
// CTXEXPAND_FAKE_LSP set, TestMain runs the server named there on standard
// input and output instead of the tests. Each misbehaves in one way, or
// (script) answers from a canned table.

const (
	envFakeMode   = "CTXEXPAND_FAKE_LSP"
	envFakeScript = "CTXEXPAND_FAKE_SCRIPT"
	envFakePID    = "CTXEXPAND_FAKE_PIDFILE"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envFakeMode); mode != "" {
		os.Exit(runFakeServer(mode, os.Stdin, os.Stdout))
	}
	os.Exit(testenv.Run(m))
}

// fakeScript is a canned table of answers: for each method, the first
// entry whose Match occurs in the request's parameters gives the result.
// Methods not in the table answer null (documentSymbol: []).
type fakeScript map[string][]struct {
	Match  string          `json:"match"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error,omitempty"`
}

func runFakeServer(mode string, in io.Reader, out io.Writer) int {
	if p := os.Getenv(envFakePID); p != "" {
		os.WriteFile(p, []byte(fmt.Sprint(os.Getpid())), 0o644)
	}
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "fake server: cannot read its configuration: boom")
		return 3
	case "silent":
		io.Copy(io.Discard, in)
		time.Sleep(time.Hour) // even with its input closed, it does not exit on its own
		return 0
	case "garbage":
		fmt.Fprintln(out, "Starting fake server v1.0 ... ready")
		io.Copy(io.Discard, in)
		return 0
	}
	var script fakeScript
	if p := os.Getenv(envFakeScript); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := json.Unmarshal(data, &script); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	r := bufio.NewReader(in)
	reply := func(id json.RawMessage, result any) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		writeMessage(out, body)
	}
	for n := 0; ; n++ {
		body, err := readMessage(r, DefaultMaxMessage)
		if err != nil {
			return 0
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			return 4
		}
		if len(m.ID) == 0 {
			switch m.Method {
			case "exit":
				return 0
			case "initialized":
				// Report the end of indexing, as rust-analyzer does.
				writeMessage(out, []byte(`{"jsonrpc":"2.0","method":"experimental/serverStatus","params":{"health":"ok","quiescent":false}}`))
				writeMessage(out, []byte(`{"jsonrpc":"2.0","method":"experimental/serverStatus","params":{"health":"ok","quiescent":true}}`))
			}
			continue
		}
		switch {
		case m.Method == "initialize":
			if mode == "badjson" {
				writeMessage(out, []byte(`{"jsonrpc":"2.0","id":1,"result":{"capabilities":`))
				continue
			}
			reply(m.ID, map[string]any{"capabilities": map[string]any{"documentSymbolProvider": true}})
			continue
		case m.Method == "shutdown":
			reply(m.ID, nil)
			continue
		case mode == "crash-after-init":
			fmt.Fprintln(os.Stderr, "panic: runtime error: index out of range [3] with length 3")
			return 2
		case mode == "slow":
			time.Sleep(time.Minute)
		}
		var result any = json.RawMessage("null")
		if m.Method == "textDocument/documentSymbol" {
			result = []any{}
		}
		for _, e := range script[m.Method] {
			if strings.Contains(string(m.Params), e.Match) {
				if e.Error != "" {
					body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32603, "message": e.Error}})
					writeMessage(out, body)
					result = nil
				} else {
					result = e.Result
				}
				break
			}
		}
		if result != nil {
			reply(m.ID, result)
		}
	}
}

// fakeOptions runs the fake server in mode with the given script file.
func fakeOptions(t *testing.T, mode, script string) Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{envFakeMode + "=" + mode}
	if script != "" {
		env = append(env, envFakeScript+"="+script)
	}
	return Options{
		Command:        []string{exe},
		Lang:           analyze.LangGo,
		Env:            env,
		StartTimeout:   2 * time.Second,
		RequestTimeout: 300 * time.Millisecond,
	}
}
