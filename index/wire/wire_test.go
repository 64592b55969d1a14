package wire

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type record struct {
	U  uint64
	I  int64
	B  bool
	Y  byte
	F  float32
	S  string
	L  []string
	Bl []byte
}

func encode(rec record) []byte {
	w := NewWriter(0)
	w.Uint(rec.U)
	w.Int(rec.I)
	w.Bool(rec.B)
	w.Byte(rec.Y)
	w.Float32(rec.F)
	w.String(rec.S)
	w.Strings(rec.L)
	w.Blob(rec.Bl)
	return w.Bytes()
}

func decode(b []byte) (record, error) {
	r := NewReader(b)
	var rec record
	rec.U = r.Uint()
	rec.I = r.Int()
	rec.B = r.Bool()
	rec.Y = r.Byte()
	rec.F = r.Float32()
	rec.S = r.String()
	rec.L = r.Strings()
	rec.Bl = r.Blob()
	return rec, r.Done()
}

func TestRoundTrip(t *testing.T) {
	tests := []record{
		{},
		{U: 1, I: -1, B: true, Y: 7, F: 1.5, S: "x", L: []string{"a", "", "ü"}, Bl: []byte{0, 1}},
		{U: math.MaxUint64, I: math.MinInt64, F: float32(math.Inf(-1)), S: string(make([]byte, 300))},
	}
	for _, want := range tests {
		got, err := decode(encode(want))
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
}

func TestCorrupt(t *testing.T) {
	full := encode(record{U: 300, S: "hello", L: []string{"a", "b"}, Bl: []byte("xyz")})
	tests := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"truncated", full[:len(full)-2]},
		{"extra byte", append(append([]byte(nil), full...), 0)},
		{"overlong varint", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decode(tt.b); !errors.Is(err, ErrCorrupt) {
				t.Errorf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestLenGuardsAllocations(t *testing.T) {
	w := NewWriter(0)
	w.Uint(1 << 40) // a list length no record of 10 bytes can hold
	r := NewReader(w.Bytes())
	if n := r.Len(1); n != 0 || r.Err() == nil {
		t.Errorf("Len = %d, err %v; want 0 and an error", n, r.Err())
	}
}

func TestInterner(t *testing.T) {
	w := NewWriter(0)
	w.String("name")
	w.String("name")
	r := NewReader(w.Bytes())
	in := Interner{}
	a, b := in.String(r), in.String(r)
	if a != "name" || b != "name" || len(in) != 1 {
		t.Errorf("got %q %q with %d interned", a, b, len(in))
	}
}

// FuzzReader checks that no input makes the reader panic.
func FuzzReader(f *testing.F) {
	f.Add(encode(record{U: 1, S: "s", L: []string{"x"}}))
	f.Add([]byte{0x80})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := decode(b)
		if err != nil {
			return
		}
		// Compare encodings: NaN floats are not equal to themselves.
		once := encode(rec)
		again, err := decode(once)
		if err != nil || !bytes.Equal(encode(again), once) {
			t.Errorf("re-encoding a decoded record changed it: %v", err)
		}
	})
}
