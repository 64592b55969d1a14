package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ctxexpand/ctxexpand/expand"
)

func TestRequestValidate(t *testing.T) {
	ok := Request{Query: "fix X"}
	flag := func(f string) string { return "--" + strings.ReplaceAll(f, "_", "-") }
	tests := []struct {
		name   string
		mod    func(*Request)
		bundle bool   // ValidateBundle instead of Validate
		field  string // "" for a valid request
		msg    string
		flag   string // the message as the command line words it
	}{
		{"defaults", func(*Request) {}, false, "", "", ""},
		{"a review needs no query", func(r *Request) { r.Query, r.Kind = "", "DIFF" }, false, "", "", ""},
		{"explicit places need no query", func(r *Request) { r.Query, r.Explicit = "", []expand.Explicit{{Path: "a.go"}} }, false, "", "", ""},
		{"zero budget ranks only", func(r *Request) { r.Budget = 0 }, false, "", "", ""},
		{"negative budget", func(r *Request) { r.Budget = -1 }, false, "budget", "budget must be a positive number of tokens, got -1", "--budget must be a positive number of tokens, got -1"},
		{"zero budget in a bundle", func(r *Request) { r.MaxFiles = 5 }, true, "budget", "budget must be a positive number of tokens, got 0", "--budget must be a positive number of tokens, got 0"},
		{"zero file count in a bundle", func(r *Request) { r.Budget = 5 }, true, "max_files", "max_files must be positive, got 0", "--max-files must be positive, got 0"},
		{"depth", func(r *Request) { r.Depth = 11 }, false, "depth", "depth must be between 0 and 10, got 11", "--depth must be between 0 and 10, got 11"},
		{"strategy", func(r *Request) { r.Strategy = "wide" }, false, "strategy", `strategy: unknown strategy "wide": choose auto, broad, entrypoint, focused, impact, semantic, or several joined with +`, ""},
		{"format", func(r *Request) { r.Format = "html" }, false, "format", `format must be markdown, xml, json or plain, got "html"`, `--format must be markdown, xml, json or plain, got "html"`},
		{"planner", func(r *Request) { r.Planner = "gpt" }, false, "planner", `planner must be heuristic or ollama, got "gpt"`, `--planner must be heuristic or ollama, got "gpt"`},
		{"ranker", func(r *Request) { r.Ranker = "best" }, false, "ranker", `ranker must be auto, learned or hand, got "best"`, `--ranker must be auto, learned or hand, got "best"`},
		{"kind", func(r *Request) { r.Kind = "poem" }, false, "kind", `unknown query kind "poem": use one of`, ""},
		{"no query", func(r *Request) { r.Query = " \n" }, false, "query", "empty query", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.mod(&r)
			err := r.Validate()
			if tc.bundle {
				err = r.ValidateBundle()
			}
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RequestError", err)
			}
			if re.Field != tc.field || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("field %q, %q; want %q, %q", re.Field, err, tc.field, tc.msg)
			}
			if tc.flag != "" && re.Text(flag) != tc.flag {
				t.Errorf("as flags: %q, want %q", re.Text(flag), tc.flag)
			}
		})
	}
	if err := (&Request{Query: "x", Strategy: "wide"}).Validate(); !errors.Is(err, expand.ErrUnknownStrategy) {
		t.Errorf("an unknown strategy: %v, want expand.ErrUnknownStrategy behind it", err)
	}
	if err := (&Request{}).Validate(); !errors.Is(err, ErrNoQuery) {
		t.Errorf("no query: %v, want ErrNoQuery", err)
	}
}

// TestRequestJSON: every field of a Request but Load survives its JSON
// form, which the resident server receives; a field that cannot travel
// must be tagged `json:"-"` and said so in Request's documentation.
func TestRequestJSON(t *testing.T) {
	var want Request
	v := reflect.ValueOf(&want).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() && f.Name != "Load" {
			fill(t, f.Name, v.Field(i))
		}
	}
	want.Load = LoadOptions{NoHistory: true}
	body, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got Request
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Request{}, "Load")); diff != "" {
		t.Errorf("lost in JSON (-want +got):\n%s", diff)
	}
	if got.Load.NoHistory {
		t.Error("Load travelled")
	}
}

// fill sets v to a non-zero value of its kind.
func fill(t *testing.T, name string, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x-" + name)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, name+"[0]", v.Index(0))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, name+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	default:
		t.Fatalf("field %s of kind %v: teach the test to fill it, or tag it json:\"-\"", name, v.Kind())
	}
}
