package serve

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecodeRequest: whatever a client sends, reading the frame and
// decoding the request (an engine.Request in its JSON form for a query)
// either fails with an error or yields a request that survives a round
// trip through WriteFrame unchanged; nothing panics and no length in a
// header makes the reader allocate beyond the limit.
func FuzzDecodeRequest(f *testing.F) {
	frame := func(body string) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
		return append(b, body...)
	}
	for _, s := range []string{
		`{"v":2,"op":"status"}`,
		`{"v":2,"op":"stop","root":"/r"}`,
		`{"v":2,"op":"query","root":"/r","program":"p","load_key":"k","timeout":5000000000,"explain":true,"query":{"query":"fix X","budget":16000,"format":"json","weights":{"Seed":1}}}`,
		`{"v":2,"op":"query","query":{"query":"x","budget":10,"max_files":3,"strategy":"focused+semantic","kind":"diff","notes":[],"explicit":[{"path":"a.go","start_line":1}],"extras":[{"kind":"diff","title":"a","content":"+x"}],"text_weights":{"Title":2}}}`,
		`{"v":2,"op":"query","query":{"query":"","budget":1}}`,
		`{"v":2,"op":"query","query":{"query":"x","budget":1,"load":{}}}`,
		`{"v":3,"op":"launch"}`,
		`{"v":2,"op":"query","query":{"query":"x","budget":-5,"depth":99}}`,
		`{"v":2,"op":"query","files_only":true,"query":{"query":"x","budget":1,"token_margin":-0,"weights":{"Seed":-0}}}`,
		`{"v":2,"op":"status"} {"v":2}`,
		`{"v":2,"op":"status","extra":true}`,
		`{"v":1,"op":"query","query":{"text":"fix X","budget":16000}}`,
		`[1,2,3]`, `null`, `"\u0000"`,
	} {
		f.Add(frame(s))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 10, '{'})
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		body, err := ReadFrame(bytes.NewReader(data), MaxRequest)
		if err != nil {
			if len(data) >= 4 && binary.BigEndian.Uint32(data) > MaxRequest && !errors.Is(err, ErrFrameTooLarge) {
				t.Fatalf("an oversized frame read as %v", err)
			}
			return
		}
		req, err := DecodeRequest(body)
		if err != nil {
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("an invalid request failed without ErrBadRequest: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteFrame(&buf, req); err != nil {
			t.Fatalf("writing a decoded request: %v", err)
		}
		body2, err := ReadFrame(&buf, MaxRequest)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		req2, err := DecodeRequest(body2)
		if err != nil {
			t.Fatalf("a request that decoded once fails the second time: %v\n%s", err, body2)
		}
		if !reflect.DeepEqual(req, req2) {
			a, _ := json.Marshal(req)
			b, _ := json.Marshal(req2)
			t.Fatalf("round trip changed the request:\n%s\n%s", a, b)
		}
	})
}
