package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/clitest"
	"github.com/ctxexpand/ctxexpand/internal/testfiles"
)

// TestBrokenInputs runs every scenario in testdata/broken through the
// command line. A scenario is a txtar archive: the repository's files,
// and in the comment the command and what must hold:
//
//	run ARGS...        the command line (after "ctxexpand --root DIR")
//	env NAME=VALUE     environment of the run (the case then runs alone)
//	exit N             the exit code (default 0)
//	stderr TEXT        stderr holds TEXT; !stderr: it does not
//	stdout TEXT        stdout holds TEXT; !stdout: it does not
//	file PATH          the JSON bundle lists PATH; !file: it does not
//	files N            the JSON bundle lists N files
//	first PATH         PATH ranks first
//	category PATH CAT  PATH has the category CAT
//	unchanged PATH     the run left the repository's PATH as it was
//
// Every run must also end in time, never panic, and print a JSON bundle
// when asked for one.
func TestBrokenInputs(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join(testfiles.ModuleRoot(t), "testdata", "broken", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no scenarios in testdata/broken: %v", err)
	}
	for _, path := range archives {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := parseScenario(t, name, ar.Comment)
		t.Run(name, func(t *testing.T) {
			if len(sc.env) == 0 {
				t.Parallel()
			}
			for _, kv := range sc.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			dir := t.TempDir()
			testfiles.Extract(t, dir, ar)
			r := clitest.Run(t, append([]string{"--root", dir}, sc.args...)...)
			sc.check(t, dir, ar, r)
		})
	}
}

// scenario is the comment of a testdata/broken archive.
type scenario struct {
	args  []string
	env   []string
	exit  int
	lines [][]string // the assertions, each split into directive and arguments
}

func parseScenario(t *testing.T, name string, comment []byte) *scenario {
	sc := &scenario{}
	for _, line := range strings.Split(string(comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		switch verb {
		case "run":
			sc.args = splitArgs(rest)
		case "env":
			sc.env = append(sc.env, rest)
		case "exit":
			n, err := strconv.Atoi(rest)
			if err != nil {
				t.Fatalf("%s: bad exit line %q", name, line)
			}
			sc.exit = n
		case "stderr", "!stderr", "stdout", "!stdout", "file", "!file", "files", "first", "unchanged":
			sc.lines = append(sc.lines, []string{verb, rest})
		case "category":
			sc.lines = append(sc.lines, append([]string{verb}, strings.Fields(rest)...))
		default:
			t.Fatalf("%s: unknown directive %q", name, verb)
		}
	}
	if sc.args == nil {
		t.Fatalf("%s: no run line", name)
	}
	return sc
}

// splitArgs splits a command line at spaces, keeping double-quoted text
// together.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted, any = !quoted, true
		case c == '\\' && quoted && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case c == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteByte(c)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

func (sc *scenario) check(t *testing.T, dir string, ar *txtar.Archive, r clitest.Result) {
	t.Helper()
	clitest.CheckSane(t, r)
	if r.Code != sc.exit {
		t.Fatalf("exit %d, want %d\n%s", r.Code, sc.exit, r)
	}
	var doc clitest.Bundle
	if slices.Contains(sc.args, "json") {
		doc = clitest.ParseBundle(t, r)
	}
	for _, l := range sc.lines {
		arg := l[1]
		switch l[0] {
		case "stderr", "!stderr", "stdout", "!stdout":
			text := r.Stderr
			if strings.HasSuffix(l[0], "stdout") {
				text = r.Stdout
			}
			if strings.Contains(text, arg) == strings.HasPrefix(l[0], "!") {
				t.Errorf("%s %q does not hold\n%s", l[0], arg, r)
			}
		case "file":
			if !slices.Contains(doc.Paths(), arg) {
				t.Errorf("%s is not in the bundle; files %v\n%s", arg, doc.Paths(), r)
			}
		case "!file":
			if slices.Contains(doc.Paths(), arg) {
				t.Errorf("%s is in the bundle\n%s", arg, r)
			}
		case "files":
			if n, _ := strconv.Atoi(arg); len(doc.Files) != n {
				t.Errorf("%d files in the bundle, want %d: %v", len(doc.Files), n, doc.Paths())
			}
		case "first":
			if len(doc.Files) == 0 || doc.Files[0].Path != arg {
				t.Errorf("first file %v, want %s", doc.Paths(), arg)
			}
		case "category":
			for _, f := range doc.Files {
				if f.Path == arg && f.Category != l[2] {
					t.Errorf("%s has category %q, want %q", arg, f.Category, l[2])
				}
			}
		case "unchanged":
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(arg)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if f.Name == arg && !bytes.Equal(f.Data, got) {
					t.Errorf("the run rewrote %s:\n%s", arg, got)
				}
			}
		}
	}
}

// TestBrokenFiles covers the broken inputs that cannot live in a txtar
// archive or in git: they are made at test time. Each runs through the
// command line and must end with exit 0, a JSON bundle holding the good
// file, and a note naming what was skipped.
func TestBrokenFiles(t *testing.T) {
	const good = "package small\n\n// Small is the file every case keeps.\nfunc Small() int { return 1 }\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		notes []string // what stderr must hold
	}{
		{
			name: "20 MB source file",
			setup: func(t *testing.T, dir string) {
				var b bytes.Buffer
				b.WriteString("package small\n\n")
				for i := 0; b.Len() < 20<<20; i++ {
					b.WriteString("func F" + strconv.Itoa(i) + "() int { return " + strconv.Itoa(i) + " }\n")
				}
				testfiles.WriteFile(t, dir, "huge.go", b.Bytes())
			},
			notes: []string{"huge.go: skipped: larger than the file size limit"},
		},
		{
			name: "binary file named x.go",
			setup: func(t *testing.T, dir string) {
				data := make([]byte, 64<<10)
				for i := range data {
					data[i] = byte(i*7 + i/251)
				}
				testfiles.WriteFile(t, dir, "x.go", data)
			},
			notes: []string{"x.go: skipped: binary content"},
		},
		{
			name: "invalid UTF-8",
			setup: func(t *testing.T, dir string) {
				testfiles.WriteFile(t, dir, "utf.go", []byte("package small\n\n// caf\xe9 \xff\xfe\nfunc Latin() string { return \"\xc3\x28\" }\n"))
			},
			notes: []string{"utf.go:3: syntax: illegal UTF-8 encoding (replaced for analysis)"},
		},
		{
			name: "symbolic link loops",
			setup: func(t *testing.T, dir string) {
				testfiles.MustSymlink(t, "a.go", filepath.Join(dir, "b.go"))
				testfiles.MustSymlink(t, "b.go", filepath.Join(dir, "a.go"))
				testfiles.MustSymlink(t, "..", filepath.Join(dir, "sub", "up"))
				testfiles.MustSymlink(t, "loopdir", filepath.Join(dir, "loopdir"))
			},
			notes: []string{"a.go: skipped: symbolic link not followed", "b.go: skipped: symbolic link not followed"},
		},
		{
			name: "named pipe x.go",
			setup: func(t *testing.T, dir string) {
				if err := syscall.Mkfifo(filepath.Join(dir, "x.go"), 0o644); err != nil {
					t.Skipf("no named pipes: %v", err)
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "y.rs"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			notes: []string{"x.go: skipped: not a regular file (a named pipe)"},
		},
		{
			name: "link to a device",
			setup: func(t *testing.T, dir string) {
				testfiles.MustSymlink(t, "/dev/zero", filepath.Join(dir, "zero.go"))
				testfiles.MustSymlink(t, "/dev/stdin", filepath.Join(dir, "stdin.go"))
			},
			notes: []string{"zero.go: skipped: symbolic link not followed", "stdin.go: skipped: symbolic link not followed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			testfiles.WriteFile(t, dir, "go.mod", []byte("module example.com/small\n\ngo 1.22\n"))
			testfiles.WriteFile(t, dir, "small.go", []byte(good))
			tt.setup(t, dir)
			r := clitest.Run(t, "--root", dir, "--format", "json", "--budget", "3000", "fix Small")
			checkBrokenRun(t, r, tt.notes)
		})
	}
}

func checkBrokenRun(t *testing.T, r clitest.Result, notes []string) {
	t.Helper()
	clitest.CheckSane(t, r)
	if r.Code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.Code, r)
	}
	doc := clitest.ParseBundle(t, r)
	if !slices.Contains(doc.Paths(), "small.go") {
		t.Errorf("small.go is not in the bundle: %v", doc.Paths())
	}
	for _, n := range notes {
		if !strings.Contains(r.Stderr, n) {
			t.Errorf("stderr lacks %q\n%s", n, r)
		}
	}
}

// TestEmptyRepository: a directory with nothing in it is not an error.
func TestEmptyRepository(t *testing.T) {
	r := clitest.Run(t, "--root", t.TempDir(), "--format", "json", "fix Small")
	clitest.CheckSane(t, r)
	if r.Code != 0 || len(clitest.ParseBundle(t, r).Files) != 0 {
		t.Fatalf("want exit 0 and an empty bundle\n%s", r)
	}
	if want := "no Go or Rust source files and no SCIP index found; nothing to analyse"; !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q\n%s", want, r)
	}
}

// TestUnreadable: a file and a directory the run may not read. Root reads
// everything whatever the permissions say, so as root the run goes to a
// child process under an unprivileged user (nobody, 65534); elsewhere it
// runs in process.
func TestUnreadable(t *testing.T) {
	var cred *syscall.Credential
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		dir = testfiles.PublicDir(t)
	}
	testfiles.WriteFile(t, dir, "go.mod", []byte("module example.com/small\n\ngo 1.22\n"))
	testfiles.WriteFile(t, dir, "small.go", []byte("package small\n\n// Small is kept.\nfunc Small() int { return 1 }\n"))
	testfiles.WriteFile(t, dir, "secret.go", []byte("package small\n\nconst Secret = \"UNREADABLE-MARKER\"\n"))
	testfiles.WriteFile(t, dir, "closed/inner.go", []byte("package closed\n\nconst Inner = \"CLOSED-MARKER\"\n"))
	for p, mode := range map[string]os.FileMode{"secret.go": 0, "closed": 0} {
		if err := os.Chmod(filepath.Join(dir, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "closed"), 0o755) })
	args := []string{"--root", dir, "--format", "json", "--budget", "3000", "fix Small Secret Inner"}
	var r clitest.Result
	if cred != nil {
		home := testfiles.PublicDir(t)
		if err := os.Chown(home, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
		r = clitest.Exec(t, []string{"HOME=" + home, "GOCACHE=" + filepath.Join(home, "gocache"), "GOPATH=" + filepath.Join(home, "gopath"), "XDG_CACHE_HOME=" + home}, cred, args...)
	} else {
		r = clitest.Run(t, args...)
	}
	checkBrokenRun(t, r, []string{"secret.go: skipped: unreadable: open secret.go: permission denied", "closed: skipped: unreadable: permission denied"})
	for _, marker := range []string{"UNREADABLE-MARKER", "CLOSED-MARKER"} {
		if strings.Contains(r.Stdout, marker) {
			t.Errorf("the bundle holds %s", marker)
		}
	}
}
