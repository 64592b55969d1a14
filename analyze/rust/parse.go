package rust

import (
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

// kindTable holds the grammar's numeric node kinds and field ids, looked up
// once, so that the walk compares integers instead of crossing into C for
// kind names.
type kindTable struct {
	sourceFile, functionItem, functionSig, structItem, enumItem, unionItem,
	traitItem, implItem, modItem, macroDef, constItem, staticItem, typeItem,
	assocType, useDecl, externCrate, foreignMod, macroInvocation,
	attributeItem, innerAttributeItem, lineComment, blockComment,
	declList, fieldDeclList, orderedFieldDeclList, fieldDecl,
	enumVariantList, enumVariant, tokenTree, block uint16

	fName, fBody, fType, fTrait, fValue uint16
}

var (
	langOnce sync.Once
	tsLang   *sitter.Language
	kinds    kindTable
)

func language() *sitter.Language {
	langOnce.Do(func() {
		tsLang = sitter.NewLanguage(tsrust.Language())
		id := func(name string) uint16 { return tsLang.IdForNodeKind(name, true) }
		kinds = kindTable{
			sourceFile:           id("source_file"),
			functionItem:         id("function_item"),
			functionSig:          id("function_signature_item"),
			structItem:           id("struct_item"),
			enumItem:             id("enum_item"),
			unionItem:            id("union_item"),
			traitItem:            id("trait_item"),
			implItem:             id("impl_item"),
			modItem:              id("mod_item"),
			macroDef:             id("macro_definition"),
			constItem:            id("const_item"),
			staticItem:           id("static_item"),
			typeItem:             id("type_item"),
			assocType:            id("associated_type"),
			useDecl:              id("use_declaration"),
			externCrate:          id("extern_crate_declaration"),
			foreignMod:           id("foreign_mod_item"),
			macroInvocation:      id("macro_invocation"),
			attributeItem:        id("attribute_item"),
			innerAttributeItem:   id("inner_attribute_item"),
			lineComment:          id("line_comment"),
			blockComment:         id("block_comment"),
			declList:             id("declaration_list"),
			fieldDeclList:        id("field_declaration_list"),
			orderedFieldDeclList: id("ordered_field_declaration_list"),
			fieldDecl:            id("field_declaration"),
			enumVariantList:      id("enum_variant_list"),
			enumVariant:          id("enum_variant"),
			tokenTree:            id("token_tree"),
			block:                id("block"),
			fName:                tsLang.FieldIdForName("name"),
			fBody:                tsLang.FieldIdForName("body"),
			fType:                tsLang.FieldIdForName("type"),
			fTrait:               tsLang.FieldIdForName("trait"),
			fValue:               tsLang.FieldIdForName("value"),
		}
	})
	return tsLang
}

// parseTimeout bounds the time tree-sitter may spend on one file, so that
// a pathological input costs a problem rather than the whole load.
const parseTimeout = 20 * time.Second

// chunkSize is how much source one read callback hands to tree-sitter.
// go-tree-sitter copies every chunk into C memory and keeps it until the
// parse ends; bounded chunks keep re-reads after backtracking cheap.
const chunkSize = 64 << 10

// useCParser says whether parsers go through the C API directly (see
// cParser), decided once by a self-test.
var (
	useCOnce  sync.Once
	useCParse bool
)

// tsParser is one tree-sitter parser with its cancellation flag. It is not
// safe for concurrent use; each worker owns one.
type tsParser struct {
	c    *cParser       // the direct C path, or
	p    *sitter.Parser // go-tree-sitter's
	flag cancelFlag
	toks []token // scratch: the tokens of the file being extracted
}

func newTSParser() *tsParser {
	language()
	useCOnce.Do(func() { useCParse = cTreesOK() })
	f := newCancelFlag()
	timeout := uint64(parseTimeout / time.Microsecond)
	if useCParse {
		if c := newCParser(f, timeout); c != nil {
			return &tsParser{c: c, flag: f}
		}
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(language()); err != nil {
		// The grammar is compiled in; an ABI mismatch is a build defect.
		panic("rust: tree-sitter grammar rejected: " + err.Error())
	}
	p.SetCancellationFlag(f.ptr()) //nolint:staticcheck // polled by C; the callback alternative crosses into Go every 100 operations
	p.SetTimeoutMicros(timeout)    //nolint:staticcheck // same
	return &tsParser{p: p, flag: f}
}

func (t *tsParser) close() {
	if t.c != nil {
		t.c.close()
	} else {
		t.p.SetCancellationFlag(nil)
		t.p.Close()
	}
	t.flag.free()
}

// parse parses src, or only the given range of it when ranges is non-empty
// (positions stay those of the whole source). It returns nil when the parse
// was cancelled or timed out; the parser is reset for the next call.
func (t *tsParser) parse(src []byte, ranges []sitter.Range) *sitter.Tree {
	if t.c != nil {
		switch len(ranges) {
		case 0:
			return t.c.parse(src, 0, 0, sitter.Point{}, sitter.Point{})
		case 1:
			r := ranges[0]
			return t.c.parse(src, int(r.StartByte), int(r.EndByte), r.StartPoint, r.EndPoint)
		}
		return t.c.parseRanges(src, ranges)
	}
	if err := t.p.SetIncludedRanges(ranges); err != nil {
		return nil
	}
	n := len(src)
	tree := t.p.ParseWithOptions(func(off int, _ sitter.Point) []byte {
		if off >= n {
			return nil
		}
		end := off + chunkSize
		if end > n {
			end = n
		}
		return src[off:end]
	}, nil, nil)
	if tree == nil {
		t.p.Reset()
	}
	if len(ranges) > 0 {
		_ = t.p.SetIncludedRanges(nil)
	}
	return tree
}
