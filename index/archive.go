package index

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Archives.
//
// An archive is a root's index in one portable file (the CLI's pack
// file, `ctxexpand index --pack`): whole-repository entries by name, and
// the records of the root's packs by kind, for another machine or another
// checkout to start from. The caller decides what goes in and, on the way
// back, under which keys the whole-repository entries are stored: their
// keys name the root they were computed for, and the records' keys do
// not.
//
// The file is the magic line "ctxexpand pack\n", the archive format
// version as a varint, then a gzip stream holding one framed payload
// (magic, kind "archive", payload, CRC-32C, as every entry): the index
// format version, the caller's description (Meta), the entries and the
// records. ReadArchive checks both versions before it trusts anything,
// checks gzip's CRC-32 and the payload's CRC-32C, bounds what it will
// decompress, and refuses anything else with an error wrapping
// ErrCorrupt or ErrArchiveVersion; it never panics (FuzzReadArchive).

// ArchiveVersion is the version of the archive file format.
const ArchiveVersion = 1

// archiveMagic starts every archive file.
const archiveMagic = "ctxexpand pack\n"

// DefaultMaxArchive bounds what ReadArchive decompresses unless told
// otherwise: far above the index of any repository we know (hugo's is
// tens of megabytes), far below what would exhaust a machine.
const DefaultMaxArchive = 1 << 30

// ErrArchiveVersion is wrapped by the error of an archive of another
// archive or index format version.
var ErrArchiveVersion = errors.New("archive of another format version")

// Archive is what an archive file holds.
type Archive struct {
	// Meta is the caller's description of the archive (what built it,
	// from which tree); the index stores it as it is.
	Meta []byte
	// Entries are whole-repository entries, by kind and name.
	Entries []ArchiveEntry
	// Records are the records of a root's packs, by kind.
	Records []ArchiveRecords
}

// ArchiveEntry is one whole-repository entry.
type ArchiveEntry struct {
	Kind    string
	Name    string
	Payload []byte
}

// ArchiveRecords are the records of one kind of pack.
type ArchiveRecords struct {
	Kind    string
	Records []Record
}

// Record is one record of a pack.
type Record struct {
	Key  Key
	Data []byte
}

// Entry returns the entry of the given kind and name.
func (a *Archive) Entry(kind, name string) ([]byte, bool) {
	for _, e := range a.Entries {
		if e.Kind == kind && e.Name == name {
			return e.Payload, true
		}
	}
	return nil, false
}

// Size is the number of bytes of payload the archive holds, before
// compression.
func (a *Archive) Size() int64 {
	n := int64(len(a.Meta))
	for _, e := range a.Entries {
		n += int64(len(e.Payload))
	}
	for _, rs := range a.Records {
		for _, r := range rs.Records {
			n += int64(len(r.Data) + len(r.Key))
		}
	}
	return n
}

// WriteArchive writes a to w.
func WriteArchive(w io.Writer, a *Archive) error {
	body := wire.NewWriter(int(a.Size()) + 1024)
	body.Uint(FormatVersion)
	body.Blob(a.Meta)
	body.Uint(uint64(len(a.Entries)))
	for _, e := range a.Entries {
		body.String(e.Kind)
		body.String(e.Name)
		body.Blob(e.Payload)
	}
	body.Uint(uint64(len(a.Records)))
	for _, rs := range a.Records {
		body.String(rs.Kind)
		body.Uint(uint64(len(rs.Records)))
		for _, r := range rs.Records {
			body.Blob(r.Key[:])
			body.Blob(r.Data)
		}
	}
	head := wire.NewWriter(32)
	for i := 0; i < len(archiveMagic); i++ {
		head.Byte(archiveMagic[i])
	}
	head.Uint(ArchiveVersion)
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return err
	}
	if _, err := zw.Write(frame("archive", body.Bytes())); err != nil {
		return err
	}
	return zw.Close()
}

// ReadArchive reads an archive written by WriteArchive, decompressing at
// most max bytes (0 means DefaultMaxArchive).
func ReadArchive(r io.Reader, max int64) (*Archive, error) {
	payload, err := readArchivePayload(r, max)
	if err != nil {
		return nil, err
	}
	return decodeArchive(payload)
}

// readArchivePayload checks an archive's header and returns its payload.
func readArchivePayload(r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxArchive
	}
	br := bufio.NewReader(r)
	magic := make([]byte, len(archiveMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != archiveMagic {
		return nil, fmt.Errorf("%w: not a ctxexpand pack (no pack header)", ErrCorrupt)
	}
	v, err := readUvarint(br)
	if err != nil {
		return nil, fmt.Errorf("%w: truncated pack header", ErrCorrupt)
	}
	if v != ArchiveVersion {
		return nil, fmt.Errorf("%w: pack format %d, this ctxexpand reads format %d", ErrArchiveVersion, v, ArchiveVersion)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(zr, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if n > max {
		return nil, fmt.Errorf("%w: the pack holds more than %d bytes", ErrCorrupt, max)
	}
	return unframe("archive", buf.Bytes())
}

func readUvarint(r io.ByteReader) (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint too long")
}

func decodeArchive(payload []byte) (*Archive, error) {
	rd := wire.NewReader(payload)
	if v := rd.Uint(); rd.Err() != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, rd.Err())
	} else if v != FormatVersion {
		return nil, fmt.Errorf("%w: pack of index format %d, this ctxexpand uses format %d", ErrArchiveVersion, v, FormatVersion)
	}
	a := &Archive{Meta: rd.Blob()}
	n := rd.Len(3)
	for i := 0; i < n && rd.Err() == nil; i++ {
		a.Entries = append(a.Entries, ArchiveEntry{Kind: rd.String(), Name: rd.String(), Payload: rd.Blob()})
	}
	n = rd.Len(2)
	for i := 0; i < n && rd.Err() == nil; i++ {
		rs := ArchiveRecords{Kind: rd.String()}
		m := rd.Len(2 + len(Key{}))
		rs.Records = make([]Record, 0, m)
		for j := 0; j < m && rd.Err() == nil; j++ {
			var rec Record
			k := rd.Blob()
			if len(k) != len(rec.Key) {
				return nil, fmt.Errorf("%w: a record key of %d bytes", ErrCorrupt, len(k))
			}
			copy(rec.Key[:], k)
			rec.Data = rd.Blob()
			rs.Records = append(rs.Records, rec)
		}
		a.Records = append(a.Records, rs)
	}
	if err := rd.Done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	for _, e := range a.Entries {
		if !validKind(e.Kind) {
			return nil, fmt.Errorf("%w: an entry of kind %q", ErrCorrupt, e.Kind)
		}
	}
	for _, rs := range a.Records {
		if !validKind(rs.Kind) {
			return nil, fmt.Errorf("%w: records of kind %q", ErrCorrupt, rs.Kind)
		}
	}
	return a, nil
}

// PackRecords returns the records of root's pack of the given kind,
// sorted by key; none when there is no pack. A corrupt pack is an error.
func (s *Store) PackRecords(root, kind string) ([]Record, error) {
	if !validKind(kind) {
		return nil, fmt.Errorf("records of kind %q: not a kind", kind)
	}
	p := filepath.Join(s.rootDir(root), kind+".pack")
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	payload, err := unframe("pack-"+kind, data)
	if err != nil {
		return nil, fmt.Errorf("the %s records of %s: %w", kind, root, err)
	}
	pk := &Pack{old: map[Key][]byte{}}
	if err := pk.decode(payload); err != nil {
		return nil, fmt.Errorf("the %s records of %s: %w", kind, root, err)
	}
	out := make([]Record, 0, len(pk.old))
	for k, v := range pk.old {
		out = append(out, Record{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].Key[:], out[j].Key[:]) < 0 })
	return out, nil
}

// AddRecords adds records to root's pack of the given kind, keeping those
// it holds (a record under a key it already has replaces it). Records are
// used only under their keys, which say what they were computed from, so
// records made elsewhere are as safe as the keys that name them.
func (s *Store) AddRecords(root, kind string, recs []Record) error {
	if !validKind(kind) {
		return fmt.Errorf("records of kind %q: not a kind", kind)
	}
	p := s.Pack(root, kind) // a corrupt pack reads as empty, with a notice
	p.mu.Lock()
	for k, v := range p.old {
		p.used[k] = v
	}
	p.mu.Unlock()
	for _, r := range recs {
		p.Put(r.Key, r.Data)
	}
	p.mu.Lock()
	p.dirty = true
	p.mu.Unlock()
	return p.flush()
}
