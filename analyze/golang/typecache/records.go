package typecache

import (
	"crypto/sha256"

	"github.com/ctxexpand/ctxexpand/index"
	"github.com/ctxexpand/ctxexpand/index/wire"
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
// Encode), its SHA-256, its shape and the packages it refers to; or,
// with Unexportable, the fact that it has none.
type Export struct {
	Hash  []byte
	Shape []byte
	// Refs are the import paths of the other packages the data names
	// (the packages of the types its declarations use), sorted: a
	// package's surface covers theirs (SurfaceKey), and only theirs.
	Refs []string
	// Objects are the sums of the package's objects by name, sorted by
	// name (Encode with objects; the loader asks for them for the
	// packages of the repository, which change). LookupExport leaves
	// them encoded, in objRaw, until ObjectSums needs them: most loads
	// never do.
	Objects      []ObjectSum
	objRaw       []byte
	Data         []byte
	Unexportable bool
}

// ObjectSum is the hash of one package-level object's declaration, as
// importers see it (objectSums).
type ObjectSum struct {
	Name string
	Sum  [16]byte
}

// HasObjects reports whether e has the sums of its objects.
func (e Export) HasObjects() bool { return (e.Objects != nil || e.objRaw != nil) && e.HasShape() }

// ObjectSums returns the sums of e's objects, decoding them when
// LookupExport left them encoded.
func (e Export) ObjectSums() []ObjectSum {
	if e.Objects != nil || e.objRaw == nil {
		return e.Objects
	}
	r := wire.NewReader(e.objRaw)
	out := make([]ObjectSum, r.Len(1+1+16))
	for i := range out {
		out[i].Name = r.String()
		copy(out[i].Sum[:], r.View()) // lengths checked by LookupExport
	}
	return out
}

// HasShape reports whether e has a shape that stands for the package's
// surface (SurfaceKey); without one, its content key does.
func (e Export) HasShape() bool { return e.Shape != nil && !e.Unexportable }

// NewExport describes data, its shape and the packages it refers to.
func NewExport(data, shape []byte, refs []string) Export {
	sum := sha256.Sum256(data)
	return Export{Hash: sum[:], Shape: shape, Refs: refs, Data: data}
}

// Has reports whether e holds data.
func (e Export) Has() bool { return e.Data != nil && !e.Unexportable }

// Export record tags.
const (
	exportRecData         byte = 1 // sha256 of the data, its shape (a SHA-256), its refs, its objects' sums
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
		if len(rec) < 1+2*sha256.Size {
			return Export{}, false
		}
		sum := rec[1 : 1+sha256.Size]
		r := wire.NewReader(rec[1+2*sha256.Size:])
		refs := r.Strings()
		var objRaw []byte
		if r.Bool() {
			at := len(rec) - r.Remaining()
			n := r.Len(1 + 1 + 16)
			for i := 0; i < n && r.Err() == nil; i++ {
				r.View()
				if len(r.View()) != 16 {
					return Export{}, false
				}
			}
			objRaw = rec[at : len(rec)-r.Remaining()]
		}
		if r.Done() != nil {
			return Export{}, false
		}
		blob, ok := c.Get(exportBlobKey(sum))
		if !ok || len(blob) < 1+4 || blob[0] != exportRecBlob {
			return Export{}, false
		}
		return Export{Hash: sum, Shape: rec[1+sha256.Size : 1+2*sha256.Size], Refs: refs, objRaw: objRaw, Data: blob[1:]}, true
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
	objects := e.ObjectSums()
	refs := wire.NewWriter(16*(len(e.Refs)+1) + 32*len(objects))
	refs.Strings(e.Refs)
	refs.Bool(objects != nil)
	if objects != nil {
		refs.Uint(uint64(len(objects)))
		for _, o := range objects {
			refs.String(o.Name)
			refs.Blob(o.Sum[:])
		}
	}
	rec := make([]byte, 0, 1+len(e.Hash)+len(e.Shape)+refs.Len())
	rec = append(append(append(append(rec, exportRecData), e.Hash...), e.Shape...), refs.Bytes()...)
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
