package index

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleArchive() *Archive {
	k := func(i int) Key { return NewHasher("a").Uint(uint64(i)).Sum() }
	return &Archive{
		Meta: []byte(`{"program":"test"}`),
		Entries: []ArchiveEntry{
			{Kind: "facts", Name: "snapshot", Payload: bytes.Repeat([]byte("facts "), 100)},
			{Kind: "lexical", Name: "snapshot", Payload: []byte("lexical index")},
		},
		Records: []ArchiveRecords{
			{Kind: "go-pkg", Records: []Record{{k(1), []byte("one")}, {k(2), []byte("two")}}},
			{Kind: "rust-file", Records: []Record{{k(3), nil}}},
		},
	}
}

func writeSample(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteArchive(&b, sampleArchive()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestArchiveRoundTrip(t *testing.T) {
	data := writeSample(t)
	got, err := ReadArchive(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleArchive(), got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if p, ok := got.Entry("lexical", "snapshot"); !ok || string(p) != "lexical index" {
		t.Errorf("Entry = %q, %v", p, ok)
	}
	if _, ok := got.Entry("lexical", "other"); ok {
		t.Error("Entry found an entry that is not there")
	}
}

// TestArchiveDamaged: every damage is an error that says so, never a
// panic and never a different archive.
func TestArchiveDamaged(t *testing.T) {
	data := writeSample(t)
	head := len(archiveMagic) + 1
	bump := func(b []byte, i int) []byte {
		b = append([]byte(nil), b...)
		b[i]++
		return b
	}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrCorrupt},
		{"not a pack", []byte("PK\x03\x04 a zip file, say"), ErrCorrupt},
		{"header only", data[:head], ErrCorrupt},
		{"truncated", data[:len(data)/2], ErrCorrupt},
		{"last byte gone", data[:len(data)-1], ErrCorrupt},
		{"a byte of the stream changed", bump(data, head+len(data[head:])/2), ErrCorrupt},
		{"gzip's checksum changed", bump(data, len(data)-6), ErrCorrupt},
		{"another pack format", bump(data, head-1), ErrArchiveVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ReadArchive(bytes.NewReader(c.data), 0)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v (archive %v), want %v", err, a != nil, c.want)
			}
		})
	}
	t.Run("another index format", func(t *testing.T) {
		// A well-formed archive whose payload names another FormatVersion.
		var b bytes.Buffer
		if err := WriteArchive(&b, sampleArchive()); err != nil {
			t.Fatal(err)
		}
		a, err := ReadArchive(&b, 0)
		if err != nil {
			t.Fatal(err)
		}
		body, err := decodeArchive(append([]byte{FormatVersion + 1}, encodeForTest(a)[1:]...))
		if !errors.Is(err, ErrArchiveVersion) {
			t.Fatalf("err = %v (archive %v), want ErrArchiveVersion", err, body != nil)
		}
	})
	t.Run("larger than the limit", func(t *testing.T) {
		if _, err := ReadArchive(bytes.NewReader(data), 100); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v, want ErrCorrupt", err)
		}
	})
}

// encodeForTest is the payload WriteArchive frames and compresses.
func encodeForTest(a *Archive) []byte {
	var b bytes.Buffer
	if err := WriteArchive(&b, a); err != nil {
		panic(err)
	}
	got, err := readArchivePayload(&b, 0)
	if err != nil {
		panic(err)
	}
	return got
}

func TestPackRecordsAndAddRecords(t *testing.T) {
	s, notices := openTest(t, t.TempDir())
	k := func(i int) Key { return NewHasher("r").Uint(uint64(i)).Sum() }
	if recs, err := s.PackRecords("/repo", "go-pkg"); err != nil || recs != nil {
		t.Fatalf("no pack: %v, %v", recs, err)
	}
	p := s.Pack("/repo", "go-pkg")
	p.Put(k(1), []byte("mine"))
	p.Put(k(2), []byte("mine too"))
	p.Flush()
	if err := s.AddRecords("/elsewhere", "go-pkg", []Record{{k(2), []byte("theirs")}, {k(3), []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddRecords("/repo", "go-pkg", []Record{{k(2), []byte("theirs")}, {k(3), []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	recs, err := s.PackRecords("/repo", "go-pkg")
	if err != nil {
		t.Fatal(err)
	}
	got := map[Key]string{}
	for _, r := range recs {
		got[r.Key] = string(r.Data)
	}
	want := map[Key]string{k(1): "mine", k(2): "theirs", k(3): "new"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records after adding (-want +got):\n%s", diff)
	}
	// A corrupt pack is an error for PackRecords (a pack must not be
	// built from it), and AddRecords starts it over with a notice.
	path := filepath.Join(s.rootDir("/repo"), "go-pkg.pack")
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PackRecords("/repo", "go-pkg"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a corrupt pack read as %v", err)
	}
	if err := s.AddRecords("/repo", "go-pkg", []Record{{k(4), []byte("after")}}); err != nil {
		t.Fatal(err)
	}
	if recs, err := s.PackRecords("/repo", "go-pkg"); err != nil || len(recs) != 1 {
		t.Errorf("after starting over: %d records, %v", len(recs), err)
	}
	if len(*notices) != 1 {
		t.Errorf("notices = %q, want one about the corrupt pack", *notices)
	}
	if err := s.AddRecords("/repo", "../x", nil); err == nil {
		t.Error("records of a kind that is not a name were added")
	}
}

// FuzzReadArchive: whatever a pack file holds (damaged, truncated,
// hostile), reading it gives an error or an archive that writes back to
// an archive reading the same; it never panics, and never decompresses
// more than its limit.
func FuzzReadArchive(f *testing.F) {
	f.Add(writeSample(f))
	var b bytes.Buffer
	WriteArchive(&b, &Archive{})
	f.Add(b.Bytes())
	f.Add([]byte(archiveMagic + "\x01"))
	f.Add([]byte(archiveMagic + "\x02\x1f\x8b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ReadArchive(bytes.NewReader(data), 1<<20)
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := WriteArchive(&again, a); err != nil {
			t.Fatal(err)
		}
		b, err := ReadArchive(&again, 1<<20)
		if err != nil {
			t.Fatalf("an archive read back fails: %v", err)
		}
		if diff := cmp.Diff(fmt.Sprint(a), fmt.Sprint(b)); diff != "" {
			t.Fatalf("archive changed on the way back:\n%s", diff)
		}
	})
}
