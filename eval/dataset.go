package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// Instance is one benchmark case: a fix commit, its parent, the commit
// message as the query and the source files the fix changed as the answer.
type Instance struct {
	ID        string   `json:"id"`         // owner/name@sha10 of the fix commit
	Repo      string   `json:"repo"`       // owner/name
	Lang      string   `json:"lang"`       // "go" or "rust"
	Commit    string   `json:"commit"`     // the fix commit
	Base      string   `json:"base"`       // its first parent: the tree to analyse
	Query     string   `json:"query"`      // the cleaned commit message
	GoldFiles []string `json:"gold_files"` // non-test source files the fix modified
	TestFiles []string `json:"test_files"` // test files the fix changed (not scored)
	// Kind is the kind of query (query.Kind's names): empty or "fix" for
	// a commit message, "issue" for a report, "question" and "lookup"
	// for hand-written questions about the tree at Base, which change
	// nothing (Commit may then equal Base), and "diff" for a review: the
	// tree is Base with the changes Commit made to DiffFiles applied as
	// an uncommitted change, the query (often empty) is the reviewer's
	// words, and the gold files are what the review should bring in (the
	// tests the fix changed, or the other files it changed).
	Kind string `json:"kind,omitempty"`
	// DiffFiles are, for a review, the files whose change from Base to
	// Commit is the diff under review. They are input, not answers: a
	// ranker sees them, and they are not scored.
	DiffFiles []string `json:"diff_files,omitempty"`

	// Informational fields.
	NSourceFilesAtBase int      `json:"n_source_files_at_base"`
	Date               string   `json:"date"`
	Subject            string   `json:"subject"`
	AddedFiles         []string `json:"added_files"`
	DroppedFiles       []string `json:"dropped_files"`

	// Line is the 1-based line of the dataset file the instance came from
	// (0 when it was not read from a file).
	Line int `json:"-"`
}

// KindDiff is the kind of a review instance (query.KindDiff's name).
const KindDiff = "diff"

// Languages the benchmark knows.
const (
	LangGo   = "go"
	LangRust = "rust"
)

// ErrDataset marks a dataset that cannot be used; the message names the line.
var ErrDataset = errors.New("invalid dataset")

// maxLineErrors caps how many bad lines one load reports.
const maxLineErrors = 20

// LoadDataset reads a JSON-lines dataset file. Blank lines are skipped;
// every other line must be a valid [Instance]. All bad lines (up to a
// cap) are reported together, each as "FILE:LINE: problem".
func LoadDataset(file string) ([]Instance, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("opening dataset: %w", err)
	}
	defer f.Close()
	return ReadDataset(f, file)
}

// ReadDataset reads a JSON-lines dataset from r; name labels errors.
func ReadDataset(r io.Reader, name string) ([]Instance, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var out []Instance
	var errs []error
	seen := map[string]int{}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		inst, err := ParseInstance(line)
		if err == nil {
			if prev, dup := seen[inst.ID]; dup {
				err = fmt.Errorf("id %q repeats the instance of line %d", inst.ID, prev)
			}
		}
		if err != nil {
			if len(errs) < maxLineErrors {
				errs = append(errs, fmt.Errorf("%s:%d: %w", name, lineNo, err))
			}
			continue
		}
		seen[inst.ID] = lineNo
		inst.Line = lineNo
		out = append(out, inst)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s after line %d: %w", name, lineNo, err)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrDataset, errors.Join(errs...))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no instances", ErrDataset, name)
	}
	return out, nil
}

// ParseInstance decodes and validates one dataset line: a single JSON
// object with no unknown fields, every required field present and well
// formed.
func ParseInstance(line []byte) (Instance, error) {
	var inst Instance
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&inst); err != nil {
		return Instance{}, fmt.Errorf("not a valid instance object: %s", jsonErrText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return Instance{}, fmt.Errorf("text after the JSON object: one instance per line")
	}
	if err := inst.Validate(); err != nil {
		return Instance{}, err
	}
	return inst, nil
}

// jsonErrText turns encoding/json errors into messages that name the field.
func jsonErrText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q must be %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("JSON syntax error at byte %d: %v", se.Offset, se)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + f
	}
	return msg
}

func jsonKind(k string) string {
	switch k {
	case "slice":
		return "a list of strings"
	case "string":
		return "a string"
	case "int":
		return "an integer"
	}
	return "a " + k
}

// Validate checks the fields of an instance.
func (in Instance) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(in.ID) == "" {
		bad("field id is missing")
	}
	if err := checkRepoName(in.Repo); err != nil {
		bad("field repo: %v", err)
	}
	if in.Lang != LangGo && in.Lang != LangRust {
		bad("field lang is %q; want %q or %q", in.Lang, LangGo, LangRust)
	}
	if !isCommitID(in.Commit) {
		bad("field commit is %q; want a full hexadecimal commit id", in.Commit)
	}
	if !isCommitID(in.Base) {
		bad("field base is %q; want a full hexadecimal commit id", in.Base)
	}
	switch in.Kind {
	case "", "fix", "issue", "diff":
		if in.Commit != "" && in.Commit == in.Base {
			bad("fields commit and base are the same commit")
		}
	case "question", "lookup":
	default:
		bad("field kind is %q; want fix, issue, question, lookup or diff", in.Kind)
	}
	if in.Kind == KindDiff {
		if len(in.DiffFiles) == 0 {
			bad("field diff_files is missing or empty; a review needs the files whose change it reviews")
		}
	} else {
		if strings.TrimSpace(in.Query) == "" {
			bad("field query is missing or blank")
		}
		if len(in.DiffFiles) > 0 {
			bad("field diff_files is only for kind diff")
		}
	}
	if len(in.GoldFiles) == 0 {
		bad("field gold_files is missing or empty; an instance needs at least one answer file")
	}
	checkPaths := func(field string, ps []string) {
		seen := map[string]bool{}
		for _, p := range ps {
			switch {
			case !cleanRel(p):
				bad("field %s: %q is not a clean relative path", field, p)
			case seen[p]:
				bad("field %s: %q is listed twice", field, p)
			}
			seen[p] = true
		}
	}
	checkPaths("gold_files", in.GoldFiles)
	checkPaths("test_files", in.TestFiles)
	checkPaths("diff_files", in.DiffFiles)
	checkPaths("added_files", in.AddedFiles)
	checkPaths("dropped_files", in.DroppedFiles)
	if in.NSourceFilesAtBase < 0 {
		bad("field n_source_files_at_base is negative")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// checkRepoName accepts owner/name with the characters GitHub allows, so
// that the name is safe to use as a directory (owner+name).
func checkRepoName(repo string) error {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" {
		return fmt.Errorf("%q is not owner/name", repo)
	}
	for _, part := range []string{owner, name} {
		if part == "." || part == ".." {
			return fmt.Errorf("%q is not owner/name", repo)
		}
		for _, r := range part {
			if !(r == '-' || r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
				return fmt.Errorf("%q has the character %q; want letters, digits, '-', '_' or '.'", repo, r)
			}
		}
	}
	return nil
}

// isCommitID accepts full SHA-1 (40) or SHA-256 (64) object names.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// cleanRel reports whether p is a clean, relative, slash-separated path
// naming something inside its root (not the root itself).
func cleanRel(p string) bool {
	return analyze.CleanRel(p) && p != "." && !strings.ContainsRune(p, 0)
}

// RepoDirName is the directory name of a repository in REPOS_DIR and in the
// checkout cache: "owner/name" becomes "owner+name".
func RepoDirName(repo string) string { return strings.Replace(repo, "/", "+", 1) }

// Filter selects instances. The zero value selects all.
type Filter struct {
	// Langs keeps instances of these languages ("go", "rust"); empty keeps all.
	Langs []string
	// Repos keeps instances of these repositories (owner/name, compared
	// without regard to case); empty keeps all.
	Repos []string
	// PerRepo keeps, of each repository's instances that pass the
	// language and repository filters, PerRepo spread evenly over them in
	// dataset order (the i-th of n kept is the ⌊i·n/PerRepo⌋-th); 0 keeps
	// all. Limit applies after it.
	PerRepo int
	// Limit keeps the first Limit instances that pass the other filters;
	// 0 keeps all.
	Limit int
}

// ErrNoInstances is returned when the filters leave nothing to run.
var ErrNoInstances = errors.New("no instances match the filters")

// Apply returns the instances that pass the filter, in dataset order.
func (f Filter) Apply(all []Instance) ([]Instance, error) {
	langs := map[string]bool{}
	for _, l := range f.Langs {
		l = strings.ToLower(strings.TrimSpace(l))
		if l != LangGo && l != LangRust {
			return nil, fmt.Errorf("unknown language %q: use %q or %q", l, LangGo, LangRust)
		}
		langs[l] = true
	}
	repos := map[string]bool{}
	for _, r := range f.Repos {
		repos[strings.ToLower(strings.TrimSpace(r))] = true
	}
	if f.Limit < 0 || f.PerRepo < 0 {
		return nil, fmt.Errorf("limit %d or per-repository count %d is negative", f.Limit, f.PerRepo)
	}
	var pass []Instance
	for _, in := range all {
		if len(langs) > 0 && !langs[in.Lang] {
			continue
		}
		if len(repos) > 0 && !repos[strings.ToLower(in.Repo)] {
			continue
		}
		pass = append(pass, in)
	}
	if f.PerRepo > 0 {
		pass = spreadPerRepo(pass, f.PerRepo)
	}
	var out []Instance
	for _, in := range pass {
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w (languages %v, repositories %v)", ErrNoInstances, f.Langs, f.Repos)
	}
	return out, nil
}

// forRanker returns the instance as a ranker may see it: the query and the
// tree to analyse, without the answer or anything derived from the fix.
func (in Instance) forRanker() Instance {
	return Instance{
		ID:                 in.ID,
		Repo:               in.Repo,
		Lang:               in.Lang,
		Base:               in.Base,
		Query:              in.Query,
		Kind:               in.Kind,
		DiffFiles:          in.DiffFiles,
		NSourceFilesAtBase: in.NSourceFilesAtBase,
		Line:               in.Line,
	}
}

// spreadPerRepo keeps up to n instances of each repository, spread evenly
// over its instances, in dataset order.
func spreadPerRepo(insts []Instance, n int) []Instance {
	byRepo := map[string][]int{}
	for i, in := range insts {
		byRepo[in.Repo] = append(byRepo[in.Repo], i)
	}
	keep := make([]bool, len(insts))
	for _, idx := range byRepo {
		if len(idx) <= n {
			for _, i := range idx {
				keep[i] = true
			}
			continue
		}
		for j := range n {
			keep[idx[j*len(idx)/n]] = true
		}
	}
	var out []Instance
	for i, in := range insts {
		if keep[i] {
			out = append(out, in)
		}
	}
	return out
}
