package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrCorrupt is wrapped by every decoding error.
var ErrCorrupt = errors.New("corrupt record")

// Writer appends values to a buffer. The zero value is ready to use.
type Writer struct {
	buf []byte
}

// NewWriter returns a writer whose buffer starts with capacity n.
func NewWriter(n int) *Writer { return &Writer{buf: make([]byte, 0, n)} }

// Bytes returns the encoded bytes; the slice is the writer's own.
func (w *Writer) Bytes() []byte { return w.buf }

// Len is the number of bytes written.
func (w *Writer) Len() int { return len(w.buf) }

// Reset empties the writer, keeping its buffer for what comes next.
func (w *Writer) Reset() { w.buf = w.buf[:0] }

// Uint writes an unsigned varint.
func (w *Writer) Uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// Int writes a signed (zig-zag) varint.
func (w *Writer) Int(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

// Bool writes one byte, 0 or 1.
func (w *Writer) Bool(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// Byte writes one byte.
func (w *Writer) Byte(v byte) { w.buf = append(w.buf, v) }

// Float32 writes the bits of v, 4 bytes little-endian.
func (w *Writer) Float32(v float32) {
	w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(v))
}

// String writes a length-prefixed string.
func (w *Writer) String(s string) {
	w.Uint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// Blob writes a length-prefixed byte slice.
func (w *Writer) Blob(b []byte) {
	w.Uint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

// Strings writes a length-prefixed list of strings.
func (w *Writer) Strings(ss []string) {
	w.Uint(uint64(len(ss)))
	for _, s := range ss {
		w.String(s)
	}
}

// Reader reads values written by a Writer, in the same order.
type Reader struct {
	buf []byte
	off int
	err error
}

// NewReader reads from b without copying it.
func NewReader(b []byte) *Reader { return &Reader{buf: b} }

// Err is the first decoding error, or nil.
func (r *Reader) Err() error { return r.err }

// Remaining is the number of bytes not read yet.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Done reports an error when bytes are left over or reading failed: a
// record that decodes with bytes to spare was not written by this code.
func (r *Reader) Done() error {
	if r.err == nil && r.off != len(r.buf) {
		r.fail("%d bytes left over", len(r.buf)-r.off)
	}
	return r.err
}

func (r *Reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w at byte %d: %s", ErrCorrupt, r.off, fmt.Sprintf(format, args...))
	}
}

// Uint reads an unsigned varint.
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.off += n
	return v
}

// Int reads a signed varint.
func (r *Reader) Int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.off += n
	return v
}

// Len reads a length that must fit in the rest of the record, each
// element taking at least min bytes; it guards allocations against
// corrupt lengths.
func (r *Reader) Len(min int) int {
	v := r.Uint()
	if min < 1 {
		min = 1
	}
	if v > uint64(r.Remaining()/min) {
		r.fail("length %d exceeds the record", v)
		return 0
	}
	return int(v)
}

// Bool reads a boolean.
func (r *Reader) Bool() bool { return r.Byte() != 0 }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.buf) {
		r.fail("truncated")
		return 0
	}
	b := r.buf[r.off]
	r.off++
	return b
}

// Float32 reads 4 bytes written by Writer.Float32.
func (r *Reader) Float32() float32 {
	if r.err != nil {
		return 0
	}
	if r.off+4 > len(r.buf) {
		r.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint32(r.buf[r.off:])
	r.off += 4
	return math.Float32frombits(v)
}

// String reads a length-prefixed string.
func (r *Reader) String() string {
	b := r.raw()
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// Blob reads a length-prefixed byte slice (a copy).
func (r *Reader) Blob() []byte {
	b := r.raw()
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// View reads a length-prefixed byte slice without copying: the result
// aliases the reader's input, which must then stay unchanged.
func (r *Reader) View() []byte { return r.raw() }

func (r *Reader) raw() []byte {
	n := r.Uint()
	if r.err != nil {
		return nil
	}
	if n > uint64(r.Remaining()) {
		r.fail("string of %d bytes exceeds the record", n)
		return nil
	}
	b := r.buf[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

// Strings reads a list written by Writer.Strings.
func (r *Reader) Strings() []string {
	n := r.Len(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.String()
	}
	return out
}

// Interner deduplicates strings read from one record, so that repeated
// names share memory.
type Interner map[string]string

// String reads a string and returns the shared copy.
func (in Interner) String(r *Reader) string {
	b := r.raw()
	if len(b) == 0 {
		return ""
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}
