package serve

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/engine"
)

// notCarried are the fields of engine.Request that a query to the
// server does not carry: the server's own, or other commands'.
var notCarried = map[string]bool{"Root": true, "Load": true, "Backend": true, "LSPCmd": true, "Explicit": true, "Extras": true, "Notes": true,
	"Features":    true, // feature dumps of the benchmark ranker
	"TextWeights": true, // fitting the query analysis in the benchmark
}

// TestQueryCoversRequest: every other field of engine.Request survives
// the trip through the protocol, so that a field added to the request is
// not silently dropped by the server (set each to a non-zero value, send,
// compare).
func TestQueryCoversRequest(t *testing.T) {
	var want engine.Request
	v := reflect.ValueOf(&want).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if notCarried[f.Name] || !f.IsExported() {
			continue
		}
		fill(t, f.Name, v.Field(i))
	}
	want.Root = "/r"
	var got engine.Request
	{
		q := QueryFrom(want)
		q.Budget = max(q.Budget, 1)
		body, err := marshalFrame(&Request{Version: Version, Op: OpQuery, Query: q})
		if err != nil {
			t.Fatal(err)
		}
		req, err := DecodeRequest(body)
		if err != nil {
			t.Fatal(err)
		}
		got = req.Query.PipelineRequest("/r")
	}
	if diff := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && len(p) == 2 && notCarried[sf.Name()]
	}, cmp.Ignore()), cmp.AllowUnexported(engine.LoadOptions{})); diff != "" {
		t.Errorf("fields lost on the way to the server (-want +got); carry them in Query or list them in notCarried:\n%s", diff)
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
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, name+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	default:
		t.Fatalf("field %s of kind %v: teach the test to fill it", name, v.Kind())
	}
}
