package serve_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/cmd/ctxexpand/internal/serve"
	"github.com/ctxexpand/ctxexpand/engine"
)

// scrape reads the server's /metrics page into name → value (samples
// without labels, and the quantiles of summaries as name{quantile="q"}).
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scraping: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("scraping: %s, %v", resp.Status, err)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("scraping: a bad line %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetricsMove starts a server on a copy of gosvc in the process, asks
// a few queries, edits a file and asks again, and checks that the figures
// of /metrics and of the status moved: queries counted, token counts
// found in the memo once a query is repeated, the generation advanced by
// the edit, one edit timed and one file analysed again.
func TestMetricsMove(t *testing.T) {
	root, st := gosvcShared(t)
	const edited = "internal/service/user.go"
	data := restoreAfter(t, root, edited)
	rs := startReal(t, root, st, edited, true)
	ctx := context.Background()
	q := &engine.Request{Query: "fix UserService.FindByEmail", Budget: 4000, Format: "json", NoNetwork: true}
	ask := func(q *engine.Request) *serve.Response {
		t.Helper()
		resp, err := rs.query(ctx, q)
		if err != nil || resp.Code != "" {
			t.Fatalf("query %q: %+v, %v", q.Query, resp, err)
		}
		return resp
	}
	first := ask(q)
	ask(&engine.Request{Query: "where are passwords hashed", Budget: 4000, Format: "markdown", NoNetwork: true})
	before := scrape(t, rs.metrics)
	again := ask(q)
	if again.Output != first.Output {
		t.Error("the same query, asked again, was answered otherwise")
	}
	after := scrape(t, rs.metrics)
	if got := after["ctxexpand_queries_total"]; got != 3 {
		t.Errorf("ctxexpand_queries_total = %v after three queries", got)
	}
	if after["ctxexpand_token_memo_hits_total"] <= before["ctxexpand_token_memo_hits_total"] {
		t.Errorf("a repeated query found no token count in the memo: hits %v, then %v",
			before["ctxexpand_token_memo_hits_total"], after["ctxexpand_token_memo_hits_total"])
	}
	if after["ctxexpand_skeleton_memo_hits_total"] <= before["ctxexpand_skeleton_memo_hits_total"] {
		t.Errorf("a repeated query found no Go skeleton in the memo: hits %v, then %v",
			before["ctxexpand_skeleton_memo_hits_total"], after["ctxexpand_skeleton_memo_hits_total"])
	}
	if after["ctxexpand_token_memo_misses_total"] == 0 || after["ctxexpand_token_memo_entries"] == 0 {
		t.Errorf("the memo counted nothing: misses %v, entries %v", after["ctxexpand_token_memo_misses_total"], after["ctxexpand_token_memo_entries"])
	}
	if r := after["ctxexpand_token_memo_hit_ratio"]; r <= 0 || r > 1 {
		t.Errorf("ctxexpand_token_memo_hit_ratio = %v", r)
	}
	gen := after["ctxexpand_generation"]
	if gen != float64(first.Gen) || gen < 1 {
		t.Errorf("ctxexpand_generation = %v, answers from %d", gen, first.Gen)
	}

	// One edit: the next query waits for it.
	p := filepath.Join(root, edited)
	if err := os.WriteFile(p, append(data, "\n// FindByEmail: addresses are compared lower-cased.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := ask(q)
	if edit.Gen <= first.Gen || !strings.Contains(edit.Output, "compared lower-cased") {
		t.Errorf("after the edit: generation %d (was %d), the edit shown: %v", edit.Gen, first.Gen, strings.Contains(edit.Output, "compared lower-cased"))
	}
	m := scrape(t, rs.metrics)
	if m["ctxexpand_generation"] != float64(edit.Gen) {
		t.Errorf("ctxexpand_generation = %v after the edit, want %d", m["ctxexpand_generation"], edit.Gen)
	}
	if m["ctxexpand_edit_to_fresh_seconds_count"] < 1 || m[`ctxexpand_edit_to_fresh_seconds{quantile="0.5"}`] <= 0 {
		t.Errorf("the edit was not timed: count %v, p50 %v", m["ctxexpand_edit_to_fresh_seconds_count"], m[`ctxexpand_edit_to_fresh_seconds{quantile="0.5"}`])
	}
	if got := m["ctxexpand_reanalysed_files"]; got != 1 {
		t.Errorf("ctxexpand_reanalysed_files = %v after editing one file", got)
	}
	if m["ctxexpand_files"] < 10 || m["ctxexpand_resident_memory_bytes"] <= 0 || m["ctxexpand_queries_total"] != 4 {
		t.Errorf("files %v, memory %v, queries %v", m["ctxexpand_files"], m["ctxexpand_resident_memory_bytes"], m["ctxexpand_queries_total"])
	}

	// The status says the same.
	stat := rs.status(t)
	f := stat.Figures
	if f == nil {
		t.Fatal("the status has no figures")
	}
	if stat.Gen != edit.Gen || stat.Queries != 4 || f.TokenHits == 0 || f.TokenHitRate() <= 0 || f.SkeletonHits == 0 || f.SkeletonHitRate() <= 0 || f.Edits < 1 || f.EditP50 <= 0 ||
		f.Reanalysed != 1 || f.Files < 10 || stat.RSSBytes <= 0 {
		t.Errorf("status: gen %d, queries %d, figures %+v, rss %d", stat.Gen, stat.Queries, *f, stat.RSSBytes)
	}

	// Priming runs in the background after each generation: once one
	// has finished, both say so.
	for f.PrimedGen == 0 {
		time.Sleep(5 * time.Millisecond) // the suite's watchdog bounds the wait
		f = rs.status(t).Figures
	}
	m = scrape(t, rs.metrics)
	if f.Primed < 10 || m["ctxexpand_primed_files"] < 10 || m["ctxexpand_prime_seconds"] <= 0 {
		t.Errorf("priming: status %d files of generation %d, metrics %v files in %v s", f.Primed, f.PrimedGen, m["ctxexpand_primed_files"], m["ctxexpand_prime_seconds"])
	}
}
