package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	sha1 = "9c419f1e1a4a82a8ed49bac3d54050890cb3e58e"
	sha2 = "b245ecd325428966ac4e4c208e268967d0e0cb83"
)

// validLine is a well-formed instance in the dataset's own layout.
var validLine = `{"id": "acme/shop@9c419f1e1a", "repo": "acme/shop", "lang": "go", "commit": "` + sha1 + `", "base": "` + sha2 + `", "query": "cart: fix rounding", "gold_files": ["cart/cart.go"], "test_files": ["cart/cart_test.go"], "n_source_files_at_base": 12, "date": "2024-01-02T10:00:00Z", "subject": "cart: fix rounding (#12)", "added_files": [], "dropped_files": []}`

// withField returns validLine with one field replaced (or removed when
// value is nil).
func withField(t *testing.T, field string, value any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(validLine), &m); err != nil {
		t.Fatal(err)
	}
	if value == nil {
		delete(m, field)
	} else {
		m[field] = value
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseInstance(t *testing.T) {
	got, err := ParseInstance([]byte(validLine))
	if err != nil {
		t.Fatal(err)
	}
	want := Instance{
		ID: "acme/shop@9c419f1e1a", Repo: "acme/shop", Lang: "go", Commit: sha1, Base: sha2,
		Query: "cart: fix rounding", GoldFiles: []string{"cart/cart.go"}, TestFiles: []string{"cart/cart_test.go"},
		NSourceFilesAtBase: 12, Date: "2024-01-02T10:00:00Z", Subject: "cart: fix rounding (#12)",
		AddedFiles: []string{}, DroppedFiles: []string{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseInstance (-want +got):\n%s", diff)
	}
}

func TestParseInstanceErrors(t *testing.T) {
	tests := []struct {
		name string
		line string
		want string // a part of the error message
	}{
		{"not json", `{"id": `, "not a valid instance object"},
		{"array", `[]`, "not a valid instance object"},
		{"two objects", validLine + ` {}`, "text after the JSON object"},
		{"unknown field", withField(t, "golden", []string{"x.go"}), `unknown field "golden"`},
		{"wrong type", withField(t, "gold_files", "cart/cart.go"), `field "gold_files" must be a list of strings`},
		{"wrong type int", withField(t, "n_source_files_at_base", "12"), `field "n_source_files_at_base" must be an integer`},
		{"missing id", withField(t, "id", nil), "field id is missing"},
		{"bad repo", withField(t, "repo", "shop"), `field repo: "shop" is not owner/name`},
		{"repo escapes", withField(t, "repo", "../etc"), `field repo: "../etc" is not owner/name`},
		{"repo odd char", withField(t, "repo", "acme/sh op"), `has the character ' '`},
		{"bad lang", withField(t, "lang", "python"), `field lang is "python"`},
		{"short commit", withField(t, "commit", "9c419f1e1a"), "field commit is"},
		{"upper-case base", withField(t, "base", strings.ToUpper(sha2)), "field base is"},
		{"commit is base", withField(t, "commit", sha2), "are the same commit"},
		{"blank query", withField(t, "query", "  "), "field query is missing or blank"},
		{"no gold", withField(t, "gold_files", []string{}), "field gold_files is missing or empty"},
		{"absolute gold", withField(t, "gold_files", []string{"/etc/passwd"}), `field gold_files: "/etc/passwd" is not a clean relative path`},
		{"climbing gold", withField(t, "gold_files", []string{"../x.go"}), "is not a clean relative path"},
		{"unclean gold", withField(t, "gold_files", []string{"a//b.go"}), "is not a clean relative path"},
		{"repeated gold", withField(t, "gold_files", []string{"a.go", "a.go"}), `"a.go" is listed twice`},
		{"bad test file", withField(t, "test_files", []string{"./t.go"}), "field test_files"},
		{"negative count", withField(t, "n_source_files_at_base", -1), "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseInstance([]byte(tt.line))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseInstance error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestReadDatasetNamesLines(t *testing.T) {
	other := withField(t, "id", "acme/shop@other")
	data := strings.Join([]string{
		validLine,
		"",
		withField(t, "lang", "cobol"),
		validLine,
		other,
		`{"id": 1}`,
	}, "\n")
	_, err := ReadDataset(strings.NewReader(data), "dev.jsonl")
	if !errors.Is(err, ErrDataset) {
		t.Fatalf("err = %v, want ErrDataset", err)
	}
	for _, want := range []string{
		`dev.jsonl:3: field lang is "cobol"`,
		`dev.jsonl:4: id "acme/shop@9c419f1e1a" repeats the instance of line 1`,
		`dev.jsonl:6: not a valid instance object: field "id" must be a string`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "dev.jsonl:5") {
		t.Errorf("error blames the valid line 5:\n%v", err)
	}

	good, err := ReadDataset(strings.NewReader(validLine+"\n\n"+other+"\n"), "dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, in := range good {
		lines = append(lines, in.Line)
	}
	if diff := cmp.Diff([]int{1, 3}, lines); diff != "" {
		t.Errorf("instance lines (-want +got):\n%s", diff)
	}

	if _, err := ReadDataset(strings.NewReader("\n\n"), "empty.jsonl"); !errors.Is(err, ErrDataset) {
		t.Errorf("empty dataset: err = %v, want ErrDataset", err)
	}
	if _, err := LoadDataset("testdata/no-such-file.jsonl"); err == nil {
		t.Errorf("LoadDataset of a missing file succeeded")
	}
}

func TestFilterApply(t *testing.T) {
	mk := func(id, repo, lang string) Instance { return Instance{ID: id, Repo: repo, Lang: lang} }
	all := []Instance{
		mk("1", "a/go1", "go"), mk("2", "b/rs1", "rust"), mk("3", "a/go1", "go"),
		mk("4", "c/go2", "go"), mk("5", "b/rs1", "rust"),
	}
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"zero keeps all", Filter{}, []string{"1", "2", "3", "4", "5"}},
		{"limit", Filter{Limit: 2}, []string{"1", "2"}},
		{"lang", Filter{Langs: []string{"rust"}}, []string{"2", "5"}},
		{"lang upper case", Filter{Langs: []string{" Go "}}, []string{"1", "3", "4"}},
		{"repos", Filter{Repos: []string{"A/GO1", "c/go2"}}, []string{"1", "3", "4"}},
		{"lang then limit", Filter{Langs: []string{"go"}, Limit: 2}, []string{"1", "3"}},
		{"limit above count", Filter{Limit: 50}, []string{"1", "2", "3", "4", "5"}},
		{"one per repository", Filter{PerRepo: 1}, []string{"1", "2", "4"}},
		{"per repository then limit", Filter{PerRepo: 1, Limit: 2}, []string{"1", "2"}},
		{"per repository above count", Filter{PerRepo: 3}, []string{"1", "2", "3", "4", "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f.Apply(all)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, in := range got {
				ids = append(ids, in.ID)
			}
			if diff := cmp.Diff(tt.want, ids); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
		})
	}
	for _, f := range []Filter{{Langs: []string{"java"}}, {Limit: -1}, {PerRepo: -1}} {
		if _, err := f.Apply(all); err == nil || errors.Is(err, ErrNoInstances) {
			t.Errorf("Apply(%+v): err = %v, want an option error", f, err)
		}
	}
	// An even spread: 2 of 5 instances of one repository are the 1st and 3rd.
	var five []Instance
	for i := range 5 {
		five = append(five, mk(fmt.Sprint(i), "a/r", "go"))
	}
	if got, _ := (Filter{PerRepo: 2}).Apply(five); len(got) != 2 || got[0].ID != "0" || got[1].ID != "2" {
		t.Errorf("PerRepo 2 of 5 = %v, want instances 0 and 2", got)
	}
	if _, err := (Filter{Repos: []string{"x/y"}}).Apply(all); !errors.Is(err, ErrNoInstances) {
		t.Errorf("no match: err = %v, want ErrNoInstances", err)
	}
}

func FuzzParseInstance(f *testing.F) {
	f.Add([]byte(validLine))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"id":"x","repo":"a/b","lang":"rust","commit":"` + sha1 + `","base":"` + sha2 + `","query":"q","gold_files":["src/lib.rs"]}`))
	f.Add([]byte(`{"gold_files": ["../../x"], "repo": "a/.."}`))
	f.Add([]byte(`{"n_source_files_at_base": 1e400}`))
	f.Add([]byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, line []byte) {
		inst, err := ParseInstance(line)
		if err != nil {
			return
		}
		// A valid instance survives a round trip unchanged, and its paths
		// and repository are safe to join to a directory.
		if err := inst.Validate(); err != nil {
			t.Fatalf("parsed instance fails validation: %v", err)
		}
		for _, p := range inst.GoldFiles {
			if !cleanRel(p) {
				t.Fatalf("gold path %q escapes", p)
			}
		}
		if d := RepoDirName(inst.Repo); strings.ContainsAny(d, "/\\") || d == "." || d == ".." {
			t.Fatalf("repository %q gives directory name %q", inst.Repo, d)
		}
		b, err := json.Marshal(inst)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseInstance(b)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", b, err)
		}
		if diff := cmp.Diff(inst, again); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}
