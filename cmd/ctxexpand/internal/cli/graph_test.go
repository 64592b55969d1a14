package cli

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/engine"
)

var update = flag.Bool("update", false, "rewrite golden files (graph pictures)")

var graphSessions = engine.NewSessionCache(2)

// sharedSessions lets the graph tests load each sample once (a load of
// gosvc takes seconds under -race); the golden files, written by other
// processes, still check that separate loads draw the same picture.
func sharedSessions(t *testing.T) {
	saved := openSession
	openSession = func(ctx context.Context, root string, _ engine.LoadOptions) (*engine.Session, error) {
		return graphSessions.Get(ctx, root, "")
	}
	t.Cleanup(func() { openSession = saved })
}

// gosvc is the Go sample repository.
var gosvc = filepath.Join("..", "..", "..", "..", "testdata", "gosvc")

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s changed (-want +got); if intended, run go test -update:\n%s", path, diff)
	}
}

// TestGraphGolden draws the sample service's picture for one query in
// every format. The SVG is the picture the README shows.
func TestGraphGolden(t *testing.T) {
	sharedSessions(t)
	const query = "fix UserService.find_by_email"
	tests := []struct {
		format, path string
		want         []string // in the output, whatever the golden says
	}{
		{"dot", filepath.Join("testdata", "graph", "gosvc-find-by-email.dot"),
			[]string{"digraph ctxexpand {", "subgraph cluster_", `label="internal/service"`, `UserService.FindByEmail\nmethod · user.go:37`, `label="calls"`, `label="tests"`}},
		{"mermaid", filepath.Join("testdata", "graph", "gosvc-find-by-email.mmd"),
			[]string{"flowchart LR", `subgraph c`, `["internal/service"]`, "UserService.FindByEmail<br/>method · user.go:37", "-->|calls|", "class "}},
		{"svg", filepath.Join("..", "..", "..", "..", "docs", "img", "gosvc-find-by-email.svg"),
			[]string{"<svg xmlns=", "UserService.FindByEmail", "internal/service", "calls"}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			code, out, errs := run(t, "graph", "--no-history", "--root", gosvc, "--format", tc.format, query)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if tc.format == "svg" {
				checkSVG(t, out)
			}
			golden(t, tc.path, []byte(out))
		})
	}
}

// checkSVG parses an SVG document with encoding/xml and checks that it
// is one svg element holding a node group per drawn node.
func checkSVG(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	depth, roots, nodes := 0, 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root element %v, want svg in the SVG namespace", el.Name)
				}
			}
			for _, a := range el.Attr {
				if el.Name.Local == "g" && a.Name.Local == "class" && strings.HasPrefix(a.Value, "node ") {
					nodes++
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 || nodes == 0 {
		t.Errorf("%d root elements and %d nodes, want 1 and some", roots, nodes)
	}
}

func TestGraphDeterministic(t *testing.T) {
	sharedSessions(t)
	var outs []string
	for range 2 {
		code, out, errs := run(t, "graph", "--no-history", "--root", gosvc, "--format", "dot", "--max-nodes", "12", "how does login issue a token")
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("two runs drew different pictures:\n%s", cmp.Diff(outs[0], outs[1]))
	}
	if n := strings.Count(outs[0], "[label=") - strings.Count(outs[0], "->"); n > 12 {
		t.Errorf("%d nodes drawn with --max-nodes 12", n)
	}
}

func TestGraphUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"graph", "--root", gosvc}, "missing QUERY"},
		{[]string{"graph", "--root", gosvc, "--format", "png", "x"}, `--format must be dot, mermaid, svg, got "png"`},
		{[]string{"graph", "--root", gosvc, "--max-nodes", "1", "x"}, "--max-nodes must be between 2 and 500"},
		{[]string{"graph", "--root", gosvc, "--strategy", "wide", "x"}, `unknown strategy "wide"`},
	}
	for _, tc := range tests {
		code, out, errs := run(t, tc.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

func TestGraphOutputFile(t *testing.T) {
	sharedSessions(t)
	out := filepath.Join(t.TempDir(), "g.mmd")
	code, stdout, errs := run(t, "graph", "--no-history", "--root", gosvc, "--format", "mermaid", "-o", out, "-q", "Handlers.Login")
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(b, []byte("Handlers.Login")) {
		t.Errorf("the picture file lacks the seed: %v\n%s", err, b)
	}
}
