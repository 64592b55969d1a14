package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitEnv makes commits byte-identical across runs and machines and keeps
// the user's configuration out.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
	"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyTree copies the sample repository src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sampleRepo is a git repository holding the named sample, one commit.
func sampleRepo(t *testing.T, sample string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "..", "..", "testdata", sample), dir)
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

// edit replaces old by new in a file of the repository, once.
func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q", rel, old)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsonBundle is the part of the JSON bundle the tests read.
type jsonBundle struct {
	Query  string   `json:"query"`
	Commit string   `json:"commit"`
	Notes  []string `json:"notes"`
	Extras []struct {
		Kind, Title, Content string
	} `json:"extras"`
	Files []struct {
		Path     string `json:"path"`
		Explicit bool   `json:"explicit"`
		Included bool   `json:"included"`
	} `json:"files"`
}

type runResult struct {
	code           int
	stdout, stderr string
	bundle         jsonBundle
}

// runDiff runs ctxexpand diff in dir with JSON output.
func runDiff(t *testing.T, dir string, stdin string, args ...string) runResult {
	t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{"diff", "--root", dir, "--format", "json", "--budget", "16000", "--tokenizer", "estimate"}, args...)
	code := Main(full, strings.NewReader(stdin), &out, &errb)
	r := runResult{code: code, stdout: out.String(), stderr: errb.String()}
	if code == ExitOK && out.Len() > 0 && !strings.Contains(strings.Join(args, " "), "--files-only") {
		if err := json.Unmarshal(out.Bytes(), &r.bundle); err != nil {
			t.Fatalf("bundle is not JSON: %v\n%s", err, out.String())
		}
	}
	return r
}

func (r runResult) rank(path string) int {
	for i, f := range r.bundle.Files {
		if f.Path == path {
			return i + 1
		}
	}
	return 0
}

func (r runResult) extra(kind string) string {
	var b strings.Builder
	for _, x := range r.bundle.Extras {
		if x.Kind == kind {
			b.WriteString(x.Content)
		}
	}
	return b.String()
}

// mustOK fails the test unless the run succeeded.
func (r runResult) mustOK(t *testing.T) runResult {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	return r
}

const findByEmailOld = `return nil, fmt.Errorf("finding user by email: %w", err)`
const findByEmailNew = `return nil, fmt.Errorf("looking up user by email %q: %w", email, err)`

const newIDFunc = `// newID returns a random 128-bit user ID in hex.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating user id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
`

func TestDiffModifiedMethod(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	edit(t, dir, "internal/service/user.go", findByEmailOld, findByEmailNew)
	r := runDiff(t, dir, "").mustOK(t)
	if r.rank("internal/service/user.go") != 1 {
		t.Errorf("internal/service/user.go ranks %d, want 1", r.rank("internal/service/user.go"))
	}
	for p, within := range map[string]int{
		"internal/httpapi/handlers.go":  4, // the caller
		"internal/service/user_test.go": 8, // the test
	} {
		if got := r.rank(p); got == 0 || got > within {
			t.Errorf("%s ranks %d, want 1..%d", p, got, within)
		}
	}
	if got := r.extra("changes"); got != "modified method UserService.FindByEmail (internal/service/user.go:34-50)\n" {
		t.Errorf("changes extra = %q", got)
	}
	if d := r.extra("diff"); !strings.Contains(d, "+\t\t"+findByEmailNew+"\n") || !strings.Contains(d, "@@ -44,7 +44,7 @@") {
		t.Errorf("diff extra lacks the hunk:\n%s", d)
	}
	if len(r.bundle.Extras) < 2 || r.bundle.Extras[0].Kind != "changes" || r.bundle.Extras[1].Kind != "diff" {
		t.Errorf("extras do not lead with the changes and the diff: %+v", r.bundle.Extras)
	}
	if !strings.Contains(r.bundle.Query, "UserService.FindByEmail") {
		t.Errorf("query = %q", r.bundle.Query)
	}
}

func TestDiffRenameAndBinary(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	logo := filepath.Join(dir, "assets", "logo.png")
	if err := os.MkdirAll(filepath.Dir(logo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logo, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "add a logo")
	if err := os.WriteFile(logo, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x02\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "mv", "internal/service/errors.go", "internal/service/errs.go")
	r := runDiff(t, dir, "").mustOK(t)
	if !strings.Contains(r.stderr, "note: binary file assets/logo.png modified; its content is not shown\n") {
		t.Errorf("stderr lacks the binary note:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "note: internal/service/errors.go → internal/service/errs.go (renamed, 100% similar)\n") {
		t.Errorf("stderr lacks the rename note:\n%s", r.stderr)
	}
	if !strings.Contains(r.extra("changes"), "renamed internal/service/errors.go → internal/service/errs.go\n") {
		t.Errorf("changes extra = %q", r.extra("changes"))
	}
	if !strings.Contains(r.extra("diff"), "binary file assets/logo.png modified; content not shown") {
		t.Errorf("diff extra lacks the binary line:\n%s", r.extra("diff"))
	}
	var titles []string
	for _, x := range r.bundle.Extras {
		titles = append(titles, x.Title)
	}
	if !strings.Contains(strings.Join(titles, "\n"), "internal/service/errors.go → internal/service/errs.go (renamed, 100% similar)") {
		t.Errorf("extra titles = %q", titles)
	}
	if got := r.rank("internal/service/errs.go"); got == 0 || !r.bundle.Files[got-1].Explicit {
		t.Errorf("renamed file: rank %d, want pinned", got)
	}
}

func TestDiffStdin(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	edit(t, dir, "internal/service/user.go", findByEmailOld, findByEmailNew)
	edit(t, dir, "internal/service/user.go", newIDFunc, "")
	patch := git(t, dir, "diff")

	// A deleted function is read from the base and reported.
	r := runDiff(t, dir, patch, "-").mustOK(t)
	const deleted = "deleted func newID (was internal/service/user.go:109-116)"
	if !strings.Contains(r.stderr, "note: "+deleted+"\n") {
		t.Errorf("stderr lacks the deletion:\n%s", r.stderr)
	}
	if !slices.Contains(r.bundle.Notes, deleted) {
		t.Errorf("bundle notes lack %q: %q", deleted, r.bundle.Notes)
	}
	wantChanges := "modified method UserService.FindByEmail (internal/service/user.go:34-50)\n" + deleted + "\n"
	if got := r.extra("changes"); got != wantChanges {
		t.Errorf("changes extra = %q, want %q", got, wantChanges)
	}
	if r.rank("internal/service/user.go") != 1 {
		t.Errorf("internal/service/user.go ranks %d, want 1", r.rank("internal/service/user.go"))
	}

	// Outside any repository the base is rebuilt by undoing the hunks.
	plain := t.TempDir()
	copyTree(t, dir, plain)
	if err := os.RemoveAll(filepath.Join(plain, ".git")); err != nil {
		t.Fatal(err)
	}
	r2 := runDiff(t, plain, patch, "-").mustOK(t)
	if r2.extra("changes") != r.extra("changes") {
		t.Errorf("without git: changes\n%q\nwant\n%q", r2.extra("changes"), r.extra("changes"))
	}

	// Malformed input: a clear error with the line.
	bad := strings.Replace(patch, "\n@@ -", "\n@@ -x", 1)
	r3 := runDiff(t, dir, bad, "-")
	if r3.code != ExitFailure || !strings.Contains(r3.stderr, "line ") || !strings.Contains(r3.stderr, "bad start") {
		t.Errorf("malformed stdin: exit %d, stderr %q", r3.code, r3.stderr)
	}
}

func TestDiffStaged(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	edit(t, dir, "internal/service/user.go", findByEmailOld, findByEmailNew)
	git(t, dir, "add", "internal/service/user.go")
	edit(t, dir, "internal/auth/token.go", "package auth", "package auth // unstaged")
	staged := runDiff(t, dir, "", "--staged").mustOK(t)
	if c := staged.extra("changes"); strings.Contains(c, "token.go") || !strings.Contains(c, "FindByEmail") {
		t.Errorf("--staged changes = %q", c)
	}
}

func TestDiffBaseHead(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	git(t, dir, "checkout", "-q", "-b", "feature")
	edit(t, dir, "internal/service/user.go", findByEmailOld, findByEmailNew)
	git(t, dir, "commit", "-q", "-am", "service: say which email failed")
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))

	r := runDiff(t, dir, "", "--base", "main").mustOK(t)
	if r.rank("internal/service/user.go") != 1 || !strings.Contains(r.bundle.Query, "say which email failed") {
		t.Errorf("--base main: rank %d, query %q", r.rank("internal/service/user.go"), r.bundle.Query)
	}

	// The head is not the working tree: it is read from git.
	edit(t, dir, "internal/service/user.go", newIDFunc, "// newID moved away\n")
	r2 := runDiff(t, dir, "", "--base", "main", "--head", "feature").mustOK(t)
	if r2.bundle.Commit != head {
		t.Errorf("commit = %q, want %s", r2.bundle.Commit, head)
	}
	if c := r2.extra("changes"); c != "modified method UserService.FindByEmail (internal/service/user.go:34-50)\n" {
		t.Errorf("--head feature changes = %q", c)
	}
}

func TestDiffUsageAndEmpty(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	if r := runDiff(t, dir, "", "--staged", "--head", "HEAD"); r.code != ExitUsage {
		t.Errorf("--staged --head: exit %d", r.code)
	}
	if r := runDiff(t, dir, "", "-", "--base", "main"); r.code != ExitUsage {
		t.Errorf("stdin with --base: exit %d", r.code)
	}
	if r := runDiff(t, dir, "", "--base", "no-such-branch"); r.code != ExitUsage || !strings.Contains(r.stderr, "unknown revision") {
		t.Errorf("unknown base: exit %d, %q", r.code, r.stderr)
	}
	if r := runDiff(t, t.TempDir(), ""); r.code != ExitFailure || !strings.Contains(r.stderr, "needs a git repository") {
		t.Errorf("not a repository: exit %d, %q", r.code, r.stderr)
	}
	r := runDiff(t, dir, "").mustOK(t)
	if len(r.bundle.Files) != 0 || !strings.Contains(r.stderr, "no changes in the working tree against HEAD") {
		t.Errorf("no change: files %v, stderr %q", r.bundle.Files, r.stderr)
	}
}

func TestDiffRust(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "rustsvc")
	edit(t, dir, "src/service.rs", "let normalized = normalize_email(email);", "let normalized = normalize_email(email.trim());")
	edit(t, dir, "src/service.rs", "\n    /// The underlying store, for inspection.\n    pub fn store(&self) -> &S {\n        &self.store\n    }\n", "\n")
	r := runDiff(t, dir, "").mustOK(t)
	want := "modified method UserService::find_by_email (src/service.rs:61-72)\n" +
		"deleted method UserService::store (was src/service.rs:129-132)\n"
	if got := r.extra("changes"); got != want {
		t.Errorf("changes extra = %q, want %q", got, want)
	}
	if r.rank("src/service.rs") != 1 {
		t.Errorf("src/service.rs ranks %d, want 1", r.rank("src/service.rs"))
	}
	for p, within := range map[string]int{
		"src/main.rs":           4, // App::execute calls it
		"tests/service_test.rs": 8, // its integration test
	} {
		if got := r.rank(p); got == 0 || got > within {
			t.Errorf("%s ranks %d, want 1..%d", p, got, within)
		}
	}
	if !slices.Contains(r.bundle.Notes, "deleted method UserService::store (was src/service.rs:129-132)") {
		t.Errorf("notes = %q", r.bundle.Notes)
	}
}

// TestDiffThroughIndex: a review of the working tree loads through the
// on-disk index, so an index built ahead (or seeded from a pack) spares it
// the analysis, and it answers exactly as without the index.
func TestDiffThroughIndex(t *testing.T) {
	t.Parallel()
	dir := sampleRepo(t, "gosvc")
	edit(t, dir, "internal/service/user.go", findByEmailOld, findByEmailNew)
	want := runDiff(t, dir, "", "--no-cache").mustOK(t)
	cache := t.TempDir()
	if code, _, errOut := run(t, "index", "--root", dir, "--cache-dir", cache); code != ExitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	got := runDiff(t, dir, "", "--cache-dir", cache).mustOK(t)
	if got.stdout != want.stdout {
		t.Error("the review through the index differs from the one without it")
	}
	_, stats, _ := run(t, "index", "--stats", "--root", dir, "--cache-dir", cache)
	if !strings.Contains(stats, "snapshot hit") {
		t.Errorf("the review did not use the snapshot ctxexpand index stored:\n%s", stats)
	}
}
