package expand

import (
	"context"
	"testing"

	"github.com/ctxexpand/ctxexpand/query"
)

// seedScores runs the query on the shop fixture and returns the strongest
// seed of each source per path.
func seedScores(t *testing.T, q string) map[string]map[string]float64 {
	t.Helper()
	return seedScoresWith(t, query.Analyze(q))
}

func seedScoresWith(t *testing.T, plan *query.Plan) map[string]map[string]float64 {
	t.Helper()
	eng, _ := shop(t)
	res, err := eng.Expand(context.Background(), plan, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	for _, s := range res.Seeds {
		if s.Path == "" {
			continue
		}
		if out[s.Source] == nil {
			out[s.Source] = map[string]float64{}
		}
		out[s.Source][s.Path] = max(out[s.Source][s.Path], s.Score)
	}
	return out
}

// TestSeedsFromReports: what a pasted report names seeds as strongly as
// it deserves.
func TestSeedsFromReports(t *testing.T) {
	t.Run("a failing test's file points at the file it tests", func(t *testing.T) {
		got := seedScores(t, "lookup fails for mixed-case addresses\n\n```\n--- FAIL: TestFindByEmail (0.01s)\n    service/user_test.go:12: no user\n```\n")
		if got["path"]["service/user_test.go"] == 0 || got["path"]["service/user.go"] == 0 {
			t.Errorf("path seeds %v: want the test file and service/user.go", got["path"])
		}
		if !(got["path"]["service/user.go"] < got["path"]["service/user_test.go"]) {
			t.Errorf("the tested file should seed a little weaker than the file named: %v", got["path"])
		}
	})
	t.Run("runtime frames do not weaken the repository's", func(t *testing.T) {
		trace := "panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 7 [running]:\n" +
			"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:83\n" +
			"shop/service.(*UserService).FindByEmail(0x0, {0x1, 0x2})\n\t/build/shop/service/user.go:1 +0x1d\n"
		got := seedScores(t, "lookup crashes\n\n"+trace)
		if s := got["frame"]["service/user.go"]; s != strengthFrame {
			t.Errorf("the repository's innermost frame seeds at %v, want %v (frames %v)", s, strengthFrame, got["frame"])
		}
	})
	t.Run("a name mentioned in passing seeds weaker than one in the title", func(t *testing.T) {
		title := seedScores(t, "FindByEmail returns nobody for mixed-case addresses\n\nThe lookup compares the raw string.")
		passing := seedScores(t, "lookup returns nobody for mixed-case addresses\n\nThe lookup in FindByEmail compares the raw string.")
		if !(passing["entity"]["service/user.go"] < title["entity"]["service/user.go"]) {
			t.Errorf("entity seed in passing %v, in the title %v", passing["entity"], title["entity"])
		}
	})
}

// TestSeedsFromGoPanicReport: a bug report shaped as people file them — a
// title, template headings, a pasted Go panic whose runtime frames come
// first, and a version list naming a package that shares a file's name —
// seeds the repository's own frame and nothing from the version list.
func TestSeedsFromGoPanicReport(t *testing.T) {
	report := "Lookup crashes for addresses with a plus sign\n\n" +
		"### What happened\n\n" +
		"Calling the lookup with `a+b@example.com` crashes the server:\n\n" +
		"```\n" +
		"panic: runtime error: invalid memory address or nil pointer dereference\n" +
		"[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a1b2c]\n\n" +
		"goroutine 42 [running]:\n" +
		"sync.(*Mutex).Lock(...)\n" +
		"\t/usr/local/go/src/sync/mutex.go:83\n" +
		"shop/service.(*UserService).FindByEmail(0x0, {0xc000012345, 0xf})\n" +
		"\t/home/ci/shop/service/user.go:1 +0x3c\n" +
		"main.main()\n" +
		"\t/home/ci/shop/cmd/app/main.go:1 +0x85\n" +
		"exit status 2\n" +
		"```\n\n" +
		"### Versions\n\n" +
		"- email_lookup 1.4.2\n" +
		"- go version go1.22.3 linux/amd64\n"
	plan := query.Analyze(report)
	for _, tm := range plan.Terms {
		switch tm.Text {
		case "emaillookup", "email_lookup", "linux", "amd64", "go1", "version":
			t.Errorf("term %q from the version list\n%s", tm.Text, plan.Explain())
		}
	}
	got := seedScoresWith(t, plan)
	if s := got["frame"]["service/user.go"]; s != strengthFrame {
		t.Errorf("innermost repository frame seeds service/user.go at %v, want %v (frames %v)", s, strengthFrame, got["frame"])
	}
	if s := got["frame"]["cmd/app/main.go"]; !(s > 0 && s < strengthFrame) {
		t.Errorf("the outer frame seeds cmd/app/main.go at %v, want weaker than the innermost (frames %v)", s, got["frame"])
	}
	for src, byPath := range got {
		if byPath["docs/email_lookup.go"] > 0 {
			t.Errorf("docs/email_lookup.go seeded by %s from the version list: %v", src, got)
		}
	}
	eng, _ := shop(t)
	res, err := eng.Expand(context.Background(), plan, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "service/user.go" {
		t.Errorf("first file %v, want service/user.go", res.Files)
	}
}
