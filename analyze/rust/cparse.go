package rust

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

// The parts of tree-sitter's C API (api.h) the loader calls directly. The
// definitions are in the C objects of go-tree-sitter and of the Rust
// grammar, linked into the same binary; the two structs have the layout of
// TSPoint and TSRange.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t row; uint32_t column; } ctx_point;
typedef struct { ctx_point start_point; ctx_point end_point; uint32_t start_byte; uint32_t end_byte; } ctx_range;

extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *self);
extern bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
extern bool ts_parser_set_included_ranges(TSParser *self, const ctx_range *ranges, uint32_t count);
extern TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
extern void ts_parser_reset(TSParser *self);
extern void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
extern void ts_parser_set_cancellation_flag(TSParser *self, const size_t *flag);
extern void ts_tree_delete(TSTree *self);
extern const TSLanguage *tree_sitter_rust(void);

static TSParser *ctx_new_parser(const size_t *flag, uint64_t timeout) {
	TSParser *p = ts_parser_new();
	if (!ts_parser_set_language(p, tree_sitter_rust())) {
		ts_parser_delete(p);
		return NULL;
	}
	ts_parser_set_cancellation_flag(p, flag);
	ts_parser_set_timeout_micros(p, timeout);
	return p;
}

static void ctx_delete_parser(TSParser *p) {
	ts_parser_set_cancellation_flag(p, NULL);
	ts_parser_delete(p);
}

// ctx_parse parses text, or only [start, end) of it when end > start.
static TSTree *ctx_parse(TSParser *p, const char *text, uint32_t len,
		uint32_t start, uint32_t end, ctx_point sp, ctx_point ep) {
	if (end > start) {
		ctx_range r = { sp, ep, start, end };
		if (!ts_parser_set_included_ranges(p, &r, 1)) return NULL;
	}
	TSTree *t = ts_parser_parse_string(p, NULL, text, len);
	if (end > start) ts_parser_set_included_ranges(p, NULL, 0);
	if (t == NULL) ts_parser_reset(p);
	return t;
}

// ctx_parse_ranges parses only the given ranges of text.
static TSTree *ctx_parse_ranges(TSParser *p, const char *text, uint32_t len,
		const ctx_range *ranges, uint32_t count) {
	if (!ts_parser_set_included_ranges(p, ranges, count)) return NULL;
	TSTree *t = ts_parser_parse_string(p, NULL, text, len);
	ts_parser_set_included_ranges(p, NULL, 0);
	if (t == NULL) ts_parser_reset(p);
	return t;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cParser is a tree-sitter parser driven through the C API directly.
// go-tree-sitter's Parse hands the source over through a Go callback that
// copies it twice per chunk and registers the call in a global table under
// a lock; ts_parser_parse_string reads the Go bytes in place (cgo allows
// that for the length of the call, and a tree keeps no reference to its
// text). That is ~5% of a load's CPU on tokio.
type cParser struct{ p *C.TSParser }

func newCParser(flag cancelFlag, timeoutMicros uint64) *cParser {
	p := C.ctx_new_parser((*C.size_t)(unsafe.Pointer(flag.p)), C.uint64_t(timeoutMicros))
	if p == nil {
		return nil
	}
	return &cParser{p: p}
}

func (c *cParser) close() { C.ctx_delete_parser(c.p) }

// parse returns the tree of src, or of src[from:to] when to > from, as a
// go-tree-sitter Tree; nil when cancelled or timed out.
func (c *cParser) parse(src []byte, from, to int, sp, ep sitter.Point) *sitter.Tree {
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(&src[0]))
	}
	t := C.ctx_parse(c.p, text, C.uint32_t(len(src)), C.uint32_t(from), C.uint32_t(to),
		C.ctx_point{C.uint32_t(sp.Row), C.uint32_t(sp.Column)}, C.ctx_point{C.uint32_t(ep.Row), C.uint32_t(ep.Column)})
	if t == nil {
		return nil
	}
	return wrapTree(unsafe.Pointer(t))
}

// parseRanges returns the tree of the given ranges of src.
func (c *cParser) parseRanges(src []byte, rs []sitter.Range) *sitter.Tree {
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(&src[0]))
	}
	cr := make([]C.ctx_range, len(rs))
	for i, r := range rs {
		cr[i] = C.ctx_range{C.ctx_point{C.uint32_t(r.StartPoint.Row), C.uint32_t(r.StartPoint.Column)},
			C.ctx_point{C.uint32_t(r.EndPoint.Row), C.uint32_t(r.EndPoint.Column)}, C.uint32_t(r.StartByte), C.uint32_t(r.EndByte)}
	}
	var rp *C.ctx_range
	if len(cr) > 0 {
		rp = &cr[0]
	}
	t := C.ctx_parse_ranges(c.p, text, C.uint32_t(len(src)), rp, C.uint32_t(len(cr)))
	if t == nil {
		return nil
	}
	return wrapTree(unsafe.Pointer(t))
}

// treeLayout mirrors go-tree-sitter's Tree, one pointer to the C tree,
// so that a tree parsed here can be walked with its Node API. cTreesOK
// checks the assumption once; if it ever fails (another version of the
// bindings), parsing goes through go-tree-sitter's own Parse.
type treeLayout struct{ inner unsafe.Pointer }

func wrapTree(p unsafe.Pointer) *sitter.Tree {
	return (*sitter.Tree)(unsafe.Pointer(&treeLayout{inner: p}))
}

// cTreesOK parses a known snippet through the C path and checks the tree
// through go-tree-sitter's API.
func cTreesOK() bool {
	if unsafe.Sizeof(sitter.Tree{}) != unsafe.Sizeof(treeLayout{}) {
		return false
	}
	flag := newCancelFlag()
	defer flag.free()
	cp := newCParser(flag, 0)
	if cp == nil {
		return false
	}
	defer cp.close()
	src := []byte("fn a() {}\nstruct B;\n")
	tree := cp.parse(src, 0, 0, sitter.Point{}, sitter.Point{})
	if tree == nil {
		return false
	}
	defer tree.Close()
	root := tree.RootNode()
	return root.KindId() == kinds.sourceFile && root.NamedChildCount() == 2 &&
		root.NamedChild(1).KindId() == kinds.structItem && root.EndByte() == uint(len(src))
}
