package typecache

import (
	"crypto/sha256"

	"github.com/ctxexpand/ctxexpand/index"
)

// Export records in a cache.
//
// The export record of a package, under its export key (ExportKey),
// names its data by hash; the data itself is a record of its own under a
// key of that hash (exportBlobKey), so that packages with equal data (the
// test copies of a package, which borrow its data) store it once. A
// package whose declarations cannot be exported has a record saying so:
// its importers check it from source without trying again.

// Cache keeps records between loads; index.Pack implements it.
type Cache interface {
	Get(key index.Key) ([]byte, bool)
	Put(key index.Key, data []byte)
}

// Record is a record to store: the loader keeps those of a unit until the
// unit is known to be sound, then puts them.
type Record struct {
	Key  index.Key
	Data []byte
}

// Export is a package's export data as kept in a cache: the data (see
// Encode), its SHA-256 and its shape; or, with Unexportable, the fact
// that it has none.
type Export struct {
	Hash         []byte
	Shape        []byte
	Data         []byte
	Unexportable bool
}

// HasShape reports whether e has a shape that stands for the package's
// surface (SurfaceKey); without one, its content key does.
func (e Export) HasShape() bool { return e.Shape != nil && !e.Unexportable }

// NewExport describes data and shape, as Encode returned them.
func NewExport(data, shape []byte) Export {
	sum := sha256.Sum256(data)
	return Export{Hash: sum[:], Shape: shape, Data: data}
}

// Has reports whether e holds data.
func (e Export) Has() bool { return e.Data != nil && !e.Unexportable }

// Export record tags.
const (
	exportRecData         byte = 1 // sha256 of the data, then its shape
	exportRecUnexportable byte = 2
	exportRecBlob         byte = 3 // the data
)

// exportBlobKey is the key of the export data with the given hash.
func exportBlobKey(sum []byte) index.Key {
	return index.NewHasher("go-export-blob").Uint(exportVersion).Bytes(sum).Sum()
}

// LookupExport reads the export record stored under key (an ExportKey)
// and the data it names. It returns false when either is missing or is
// not a record of this package; the data itself is checked when a Reader
// first decodes it.
func LookupExport(c Cache, key index.Key) (Export, bool) {
	rec, ok := c.Get(key)
	if !ok || len(rec) == 0 {
		return Export{}, false
	}
	switch rec[0] {
	case exportRecData:
		if len(rec) != 1+2*sha256.Size {
			return Export{}, false
		}
		sum := rec[1 : 1+sha256.Size]
		blob, ok := c.Get(exportBlobKey(sum))
		if !ok || len(blob) < 1+4 || blob[0] != exportRecBlob {
			return Export{}, false
		}
		return Export{Hash: sum, Shape: rec[1+sha256.Size:], Data: blob[1:]}, true
	case exportRecUnexportable:
		return Export{Unexportable: true}, true
	}
	return Export{}, false
}

// Records are the records that store e under key (an ExportKey): the
// export record, and the data's own record when there is data.
func (e Export) Records(key index.Key) []Record {
	if e.Unexportable || e.Data == nil {
		return []Record{{key, []byte{exportRecUnexportable}}}
	}
	rec := make([]byte, 0, 1+len(e.Hash)+len(e.Shape))
	rec = append(append(append(rec, exportRecData), e.Hash...), e.Shape...)
	blob := make([]byte, 0, 1+len(e.Data))
	blob = append(append(blob, exportRecBlob), e.Data...)
	return []Record{{key, rec}, {exportBlobKey(e.Hash), blob}}
}

// BlobData returns the export data a record holds when it is the data
// record stored under key, as Records wrote it; tests use it to tell
// data records apart and to damage them.
func BlobData(key index.Key, rec []byte) ([]byte, bool) {
	if len(rec) == 0 || rec[0] != exportRecBlob {
		return nil, false
	}
	sum := sha256.Sum256(rec[1:])
	if key != exportBlobKey(sum[:]) {
		return nil, false
	}
	return rec[1:], true
}
