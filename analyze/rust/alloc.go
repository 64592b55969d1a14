package rust

/*
#include <stdlib.h>
#include <stdint.h>

// Declared in tree-sitter's api.h; defined in go-tree-sitter's C objects,
// which are linked into the same binary.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

static void ctx_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

static uintptr_t *ctx_new_flag(void) { return (uintptr_t *)calloc(1, sizeof(uintptr_t)); }
static void ctx_free_flag(uintptr_t *p) { free(p); }
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// go-tree-sitter routes every allocation the C parser makes through Go
// callbacks (C → Go → C.malloc). Those cgo transitions made parsing about
// 40% slower on tokio (440 ms against 317 ms for 793 files on 2 cores), so
// the loader points tree-sitter straight at libc. The Go callbacks it
// replaces call the same libc functions, so memory allocated before and
// after the switch is interchangeable. Nothing in this program installs a
// custom allocator through go-tree-sitter's SetAllocator.
func init() { C.ctx_use_libc_allocator() }

// cancelFlag is a word in C memory that tree-sitter polls while parsing;
// storing 1 into it stops the parse. It lives in C memory because C keeps
// the pointer after the call that hands it over, which cgo forbids for Go
// memory.
type cancelFlag struct{ p *C.uintptr_t }

func newCancelFlag() cancelFlag { return cancelFlag{C.ctx_new_flag()} }

func (f cancelFlag) ptr() *uintptr { return (*uintptr)(unsafe.Pointer(f.p)) }

func (f cancelFlag) set()   { atomic.StoreUintptr(f.ptr(), 1) }
func (f cancelFlag) clear() { atomic.StoreUintptr(f.ptr(), 0) }
func (f cancelFlag) free()  { C.ctx_free_flag(f.p) }
