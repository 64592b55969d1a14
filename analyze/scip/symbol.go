package scip

import (
	"fmt"
	"strings"

	"github.com/ctxexpand/ctxexpand/analyze"
	pb "github.com/sourcegraph/scip/bindings/go/scip"
)

// described is a global SCIP symbol as the facts model sees it.
type described struct {
	key       string // the canonical symbol string (parsed and formatted again)
	name      string // simple name: findByEmail, find_by_email, UserService
	container string // enclosing type's name, or the impl's self type
	parent    string // canonical symbol of the enclosing type, or ""
	kind      analyze.SymbolKind
	module    bool   // a namespace or file module
	pkg       string // the package name of the symbol
	// rust-analyzer's impl#[Self][Trait] descriptors, cleaned of generics
	// and paths ("UserService", "Store"); empty outside trait impls.
	implSelf, implTrait string
}

// describe interprets a symbol string. It reports false for symbols that
// are not declarations of ours: locals, parameters, type parameters,
// meta descriptors, and anything that does not parse.
func describe(symbol string, info *pb.SymbolInformation) (described, bool) {
	if symbol == "" || pb.IsLocalSymbol(symbol) {
		return described{}, false
	}
	sym, err := parseSymbol(symbol)
	if err != nil || len(sym.Descriptors) == 0 {
		return described{}, false
	}
	ds := sym.Descriptors
	last := ds[len(ds)-1]
	switch last.Suffix {
	case pb.Descriptor_Parameter, pb.Descriptor_TypeParameter, pb.Descriptor_Local, pb.Descriptor_Meta, pb.Descriptor_UnspecifiedSuffix:
		return described{}, false
	}
	d := described{key: canonical(sym), name: cleanName(last.Name)}
	if sym.Package != nil {
		d.pkg = sym.Package.Name
	}
	if d.name == "" {
		return described{}, false
	}
	// The enclosing type: the nearest Type descriptor before the last, or
	// rust-analyzer's impl#[Self][Trait].
	for i := len(ds) - 2; i >= 0; i-- {
		if ds[i].Suffix != pb.Descriptor_Type {
			continue
		}
		if ds[i].Name == "impl" && i+1 < len(ds)-1 && ds[i+1].Suffix == pb.Descriptor_TypeParameter {
			d.implSelf = typeName(ds[i+1].Name)
			d.container = d.implSelf
			if i+2 < len(ds)-1 && ds[i+2].Suffix == pb.Descriptor_TypeParameter {
				d.implTrait = typeName(ds[i+2].Name)
			}
			break
		}
		d.container = cleanName(ds[i].Name)
		d.parent = canonical(&pb.Symbol{Scheme: sym.Scheme, Package: sym.Package, Descriptors: ds[:i+1]})
		break
	}
	var kind pb.SymbolInformation_Kind
	if info != nil {
		kind = info.Kind
	}
	sig := signatureWord(info)
	switch last.Suffix {
	case pb.Descriptor_Namespace:
		d.kind, d.module = analyze.KindModule, true
	case pb.Descriptor_Macro:
		d.kind = analyze.KindMacro
	case pb.Descriptor_Method:
		d.kind = analyze.KindFunc
		if d.container != "" {
			d.kind = analyze.KindMethod
		}
	case pb.Descriptor_Type:
		if last.Name == "impl" {
			return described{}, false // an impl block: its items carry it
		}
		d.kind = typeKind(kind, sig, d.container != "")
	case pb.Descriptor_Term:
		if last.Name == "__init__" && d.container == "" && len(ds) >= 2 && ds[len(ds)-2].Suffix == pb.Descriptor_Namespace {
			d.kind, d.module = analyze.KindModule, true // scip-python's module symbol
			d.name = moduleName(ds[len(ds)-2].Name)
			break
		}
		d.kind = termKind(kind, sig, d.container != "")
	}
	return d, true
}

// maxSymbolLen bounds the symbols given to the bindings' parser; real
// ones are a few hundred bytes.
const maxSymbolLen = 4096

// parseSymbol parses a symbol with the bindings, turning the parser's
// panics on malformed input (v0.5.2 indexes past the end of some
// non-ASCII strings, found by FuzzLoad) into errors.
func parseSymbol(s string) (sym *pb.Symbol, err error) {
	if len(s) > maxSymbolLen {
		return nil, fmt.Errorf("symbol of %d bytes", len(s))
	}
	defer func() {
		if r := recover(); r != nil {
			sym, err = nil, fmt.Errorf("malformed symbol %q", s)
		}
	}()
	return pb.ParseSymbol(s)
}

// canonical formats a parsed symbol back, so that symbols spelled
// differently (escapes) compare equal.
func canonical(sym *pb.Symbol) string {
	return pb.LenientVerboseSymbolFormatter.FormatSymbol(sym)
}

// cleanName turns a descriptor name into the name a person writes:
// TypeScript's "<constructor>" becomes "constructor", a file module
// "user.ts" keeps its name.
func cleanName(n string) string {
	if strings.HasPrefix(n, "<") && strings.HasSuffix(n, ">") {
		return n[1 : len(n)-1]
	}
	return n
}

// moduleName is the last segment of a dotted module path ("pysvc.service"
// → "service").
func moduleName(n string) string {
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		return n[i+1:]
	}
	return n
}

// typeName cleans a type as rust-analyzer displays it in impl#[…]:
// "&'a UserService<S>" → "UserService", "store::Store" → "Store",
// "From<StoreError>" → "From".
func typeName(t string) string {
	t = strings.TrimSpace(t)
	for {
		switch {
		case strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
			if strings.HasPrefix(t, "'") {
				if i := strings.IndexByte(t, ' '); i > 0 {
					t = t[i+1:]
				}
			}
			continue
		case strings.HasPrefix(t, "mut "):
			t = t[4:]
			continue
		case strings.HasPrefix(t, "dyn "):
			t = t[4:]
			continue
		}
		break
	}
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	return strings.TrimSpace(t)
}

// signatureWord is the keyword a symbol's signature starts with, from the
// signature documentation or a documentation entry written as a code
// block: "class", "interface", "enum", "type", "const", "let", "var",
// "def", "struct", "trait", "fn"; "" when there is none.
func signatureWord(info *pb.SymbolInformation) string {
	sig := signatureOf(info)
	sig = strings.TrimSpace(sig)
	if strings.HasPrefix(sig, "(") { // TypeScript's "(method) …", "(property) …"
		if i := strings.IndexByte(sig, ')'); i > 0 {
			return strings.TrimSpace(sig[1:i])
		}
	}
	for _, w := range strings.Fields(sig) {
		switch w {
		case "pub", "pub(crate)", "export", "declare", "abstract", "async", "default", "unsafe", "const fn":
			continue
		}
		return w
	}
	return ""
}

// signatureOf is a symbol's one-line signature: the signature document's
// text, or the first documentation entry written as a code block, with
// white space collapsed.
func signatureOf(info *pb.SymbolInformation) string {
	if info == nil {
		return ""
	}
	if sd := info.SignatureDocumentation; sd != nil && strings.TrimSpace(sd.Text) != "" {
		return oneLine(sd.Text)
	}
	for _, d := range info.Documentation {
		if code, ok := codeBlock(d); ok {
			return oneLine(code)
		}
	}
	return ""
}

// docOf is a symbol's documentation without its signature block.
func docOf(info *pb.SymbolInformation) string {
	if info == nil {
		return ""
	}
	var parts []string
	for _, d := range info.Documentation {
		if _, ok := codeBlock(d); ok {
			continue
		}
		if d = strings.TrimSpace(d); d != "" {
			parts = append(parts, d)
		}
	}
	return strings.Join(parts, "\n\n")
}

// codeBlock returns the inside of a Markdown fenced code block that makes
// up the whole of s.
func codeBlock(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return "", false
	}
	body := s[3 : len(s)-3]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:] // the language tag
	} else {
		return "", false
	}
	return body, true
}

// oneLine collapses white space, so a signature spread over lines reads as
// one ("def f(\n  self\n) -> int:" → "def f( self ) -> int:").
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// typeKind picks the kind of a Type descriptor.
func typeKind(k pb.SymbolInformation_Kind, sig string, nested bool) analyze.SymbolKind {
	switch k {
	case pb.SymbolInformation_Struct, pb.SymbolInformation_Class, pb.SymbolInformation_Object:
		return analyze.KindStruct
	case pb.SymbolInformation_Interface, pb.SymbolInformation_Protocol:
		return analyze.KindInterface
	case pb.SymbolInformation_Trait:
		return analyze.KindTrait
	case pb.SymbolInformation_Enum:
		return analyze.KindEnum
	case pb.SymbolInformation_EnumMember:
		return analyze.KindVariant
	case pb.SymbolInformation_Union:
		return analyze.KindUnion
	case pb.SymbolInformation_TypeAlias:
		return analyze.KindTypeAlias
	case pb.SymbolInformation_AssociatedType:
		return analyze.KindAssocType
	case pb.SymbolInformation_Type:
		return analyze.KindType
	}
	switch sig {
	case "class", "struct":
		return analyze.KindStruct
	case "interface", "protocol":
		return analyze.KindInterface
	case "enum":
		return analyze.KindEnum
	case "type":
		return analyze.KindTypeAlias
	case "trait":
		return analyze.KindTrait
	case "union":
		return analyze.KindUnion
	case "enum member":
		return analyze.KindVariant
	}
	if nested {
		return analyze.KindVariant // a Type inside a Type: an enum variant (rust-analyzer) or nested class
	}
	return analyze.KindStruct
}

// termKind picks the kind of a Term descriptor.
func termKind(k pb.SymbolInformation_Kind, sig string, nested bool) analyze.SymbolKind {
	switch k {
	case pb.SymbolInformation_Constant:
		return analyze.KindConst
	case pb.SymbolInformation_StaticVariable, pb.SymbolInformation_StaticField:
		return analyze.KindStatic
	case pb.SymbolInformation_Field, pb.SymbolInformation_Property, pb.SymbolInformation_StaticProperty:
		return analyze.KindField
	case pb.SymbolInformation_EnumMember:
		return analyze.KindVariant
	case pb.SymbolInformation_Variable:
		if nested {
			return analyze.KindField
		}
		return analyze.KindVar
	}
	switch sig {
	case "const":
		return analyze.KindConst
	case "enum member":
		return analyze.KindVariant
	case "property", "field":
		return analyze.KindField
	}
	if nested {
		return analyze.KindField
	}
	return analyze.KindVar
}
