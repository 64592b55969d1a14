package scip

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	toml "github.com/pelletier/go-toml/v2"
	"golang.org/x/mod/modfile"
	"google.golang.org/protobuf/proto"

	"github.com/ctxexpand/ctxexpand/analyze"
	pb "github.com/sourcegraph/scip/bindings/go/scip"
)

// ExportOptions configures Export.
type ExportOptions struct {
	// ToolVersion is recorded in the index's metadata.
	ToolVersion string
}

// ExportStats says what Export wrote.
type ExportStats struct {
	Documents, Symbols, Occurrences, Relationships int
	// Skipped counts symbols whose symbol string another declaration
	// already had, and references whose name was not found on their line.
	SkippedSymbols, SkippedRefs int
}

// Export writes the Go and Rust files of facts as a SCIP index: per file a
// document, per declaration a global symbol in the scheme of the
// language's indexer (scip-go's for Go: "scip-go gomod MODULE . `IMPORT/PATH`/Type#Method().";
// rust-analyzer's for Rust: "rust-analyzer cargo PACKAGE VERSION module/impl#[Type][Trait]method()."),
// a definition occurrence at its name with the declaration's lines as
// enclosing range, a reference occurrence for each calls, references and
// macro edge at the first place it occurs (the facts keep one place per
// relation), and implements edges as is_implementation relationships. The
// files are read again from facts.Root to place names on their lines.
func Export(fs *analyze.Facts, opt ExportOptions) (*pb.Index, ExportStats) {
	var st ExportStats
	e := &exporter{fs: fs, texts: map[analyze.FileID][]string{}}
	e.goModule = goModulePath(fs.Root)
	syms := make([]string, len(fs.Symbols))
	used := map[string]bool{}
	for i := range fs.Symbols {
		s := e.symbol(analyze.SymID(i))
		if s == "" {
			continue
		}
		if used[s] {
			st.SkippedSymbols++
			continue
		}
		used[s] = true
		syms[i] = s
	}
	docs := map[analyze.FileID]*pb.Document{}
	doc := func(f analyze.FileID) *pb.Document {
		if d, ok := docs[f]; ok {
			return d
		}
		d := &pb.Document{RelativePath: fs.Files[f].Path, Language: fs.Files[f].Lang.String(),
			PositionEncoding: pb.PositionEncoding_UTF8CodeUnitOffsetFromLineStart}
		docs[f] = d
		return d
	}
	infos := map[analyze.SymID]*pb.SymbolInformation{}
	for i, sym := range fs.Symbols {
		if syms[i] == "" {
			continue
		}
		lines := e.text(sym.File)
		col, ok := nameColumn(lines, sym.DeclLine, sym.Name)
		if !ok {
			col = 0
		}
		endLine := min(sym.End, len(lines))
		occ := &pb.Occurrence{
			Range:          []int32{int32(sym.DeclLine - 1), int32(col), int32(col + len(sym.Name))},
			Symbol:         syms[i],
			SymbolRoles:    int32(pb.SymbolRole_Definition),
			EnclosingRange: []int32{int32(sym.Start - 1), 0, int32(endLine - 1), int32(len(lineAt(lines, endLine)))},
		}
		if !ok {
			occ.Range = []int32{int32(sym.DeclLine - 1), 0, 0}
		}
		d := doc(sym.File)
		d.Occurrences = append(d.Occurrences, occ)
		info := &pb.SymbolInformation{Symbol: syms[i], Kind: infoKind(sym.Kind), DisplayName: sym.Name}
		if sym.Doc != "" {
			info.Documentation = []string{sym.Doc}
		}
		if sym.Signature != "" {
			info.SignatureDocumentation = &pb.Document{Language: fs.Files[sym.File].Lang.String(), Text: sym.Signature,
				PositionEncoding: pb.PositionEncoding_UTF8CodeUnitOffsetFromLineStart}
		}
		infos[analyze.SymID(i)] = info
		d.Symbols = append(d.Symbols, info)
		st.Symbols++
	}
	for _, ed := range fs.Edges {
		if syms[ed.From] == "" || syms[ed.To] == "" {
			continue
		}
		switch ed.Kind {
		case analyze.EdgeImplements:
			infos[ed.From].Relationships = append(infos[ed.From].Relationships, &pb.Relationship{Symbol: syms[ed.To], IsImplementation: true})
			st.Relationships++
			continue
		case analyze.EdgeCalls, analyze.EdgeReferences, analyze.EdgeMacro:
		default:
			continue // structure (method_of, field, embeds) lives in the symbols; tests edges are derived
		}
		from, to := &fs.Symbols[ed.From], &fs.Symbols[ed.To]
		col, ok := -1, false
		if ed.Kind == analyze.EdgeCalls {
			col, ok = callColumn(e.text(from.File), ed.Line, to.Name)
		}
		if !ok {
			col, ok = nameColumn(e.text(from.File), ed.Line, to.Name)
		}
		if !ok {
			st.SkippedRefs++
			continue
		}
		d := doc(from.File)
		d.Occurrences = append(d.Occurrences, &pb.Occurrence{
			Range:  []int32{int32(ed.Line - 1), int32(col), int32(col + len(to.Name))},
			Symbol: syms[ed.To],
		})
	}
	idx := &pb.Index{Metadata: &pb.Metadata{
		ToolInfo:             &pb.ToolInfo{Name: "ctxexpand", Version: opt.ToolVersion},
		ProjectRoot:          "file://" + filepath.ToSlash(fs.Root),
		TextDocumentEncoding: pb.TextEncoding_UTF8,
	}}
	var fids []analyze.FileID
	for f := range docs {
		fids = append(fids, f)
	}
	sort.Slice(fids, func(i, j int) bool { return fs.Files[fids[i]].Path < fs.Files[fids[j]].Path })
	for _, f := range fids {
		d := docs[f]
		sort.SliceStable(d.Occurrences, func(i, j int) bool {
			a, b := d.Occurrences[i], d.Occurrences[j]
			for k := 0; k < 3; k++ {
				if a.Range[k] != b.Range[k] {
					return a.Range[k] < b.Range[k]
				}
			}
			if a.SymbolRoles != b.SymbolRoles {
				return a.SymbolRoles > b.SymbolRoles
			}
			return a.Symbol < b.Symbol
		})
		// One occurrence per range and symbol.
		occs := d.Occurrences[:0]
		for _, o := range d.Occurrences {
			if n := len(occs); n > 0 && occs[n-1].Symbol == o.Symbol && equalRange(occs[n-1].Range, o.Range) {
				continue
			}
			occs = append(occs, o)
		}
		d.Occurrences = occs
		st.Occurrences += len(occs)
		idx.Documents = append(idx.Documents, d)
	}
	st.Documents = len(idx.Documents)
	return idx, st
}

// WriteIndex writes an index in SCIP's protobuf encoding.
func WriteIndex(w io.Writer, idx *pb.Index) error {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(idx)
	if err != nil {
		return fmt.Errorf("encoding the SCIP index: %w", err)
	}
	_, err = w.Write(data)
	return err
}

type exporter struct {
	fs       *analyze.Facts
	texts    map[analyze.FileID][]string
	goModule string
	inline   map[analyze.FileID][]analyze.SymID
	cargo    map[string]*pb.Package // by directory; nil: no package there
}

// text is a file's lines, read once ("" lines when it cannot be read).
func (e *exporter) text(f analyze.FileID) []string {
	if t, ok := e.texts[f]; ok {
		return t
	}
	data, err := analyze.ReadSource(e.fs.Root, e.fs.Files[f].Path, 0)
	var lines []string
	if err == nil {
		lines = strings.Split(string(data), "\n")
	}
	e.texts[f] = lines
	return lines
}

func lineAt(lines []string, l int) string {
	if l < 1 || l > len(lines) {
		return ""
	}
	return strings.TrimSuffix(lines[l-1], "\r")
}

// nameColumn finds name as a whole word on line l (1-based), returning its
// byte column.
func nameColumn(lines []string, l int, name string) (int, bool) {
	text := lineAt(lines, l)
	if name == "" || text == "" {
		return 0, false
	}
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return 0, false
		}
		i += from
		end := i + len(name)
		if !identByteBefore(text, i) && !identByteAt(text, end) {
			return i, true
		}
		from = i + 1
	}
	return 0, false
}

// callColumn finds name as a whole word followed by an argument list (or
// a turbofish, or a macro's "!") on line l: a call's place, which a
// variable of the same name earlier on the line must not take.
func callColumn(lines []string, l int, name string) (int, bool) {
	text := lineAt(lines, l)
	for from := 0; name != "" && from < len(text); {
		i := strings.Index(text[from:], name)
		if i < 0 {
			break
		}
		i += from
		end := i + len(name)
		if !identByteBefore(text, i) && !identByteAt(text, end) {
			rest := strings.TrimLeft(text[end:], " \t")
			if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "::<") || strings.HasPrefix(rest, "!") || strings.HasPrefix(rest, "<") {
				return i, true
			}
		}
		from = i + 1
	}
	return 0, false
}

func identByteBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func identByteAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func equalRange(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// symbol is the global symbol of a declaration, or "" for declarations
// that have none (Rust impl blocks, other languages).
func (e *exporter) symbol(id analyze.SymID) string {
	s := &e.fs.Symbols[id]
	f := &e.fs.Files[s.File]
	switch f.Lang {
	case analyze.LangGo:
		if s.Kind == analyze.KindImpl || f.Package == "" {
			return ""
		}
		module := e.goModule
		if module == "" {
			module = f.Package
		}
		ds := []*pb.Descriptor{{Name: f.Package, Suffix: pb.Descriptor_Namespace}}
		if s.Container != "" {
			ds = append(ds, &pb.Descriptor{Name: s.Container, Suffix: pb.Descriptor_Type})
		}
		ds = append(ds, &pb.Descriptor{Name: s.Name, Suffix: suffix(s.Kind, false)})
		return pb.VerboseSymbolFormatter.FormatSymbol(&pb.Symbol{Scheme: "scip-go", Package: &pb.Package{Manager: "gomod", Name: module, Version: "."}, Descriptors: ds})
	case analyze.LangRust:
		if s.Kind == analyze.KindImpl || f.PkgName == "" {
			return ""
		}
		pkg := e.cargoPackage(f.Path, f.PkgName)
		var ds []*pb.Descriptor
		for _, m := range e.rustModules(id) {
			ds = append(ds, &pb.Descriptor{Name: m, Suffix: pb.Descriptor_Namespace})
		}
		if s.Parent != analyze.NoSym && e.fs.Symbols[s.Parent].Kind == analyze.KindImpl {
			// impl#[SelfType] or impl#[SelfType][Trait], the types as written.
			p := &e.fs.Symbols[s.Parent]
			header := ImplHeader(p.Signature, p.Name)
			self, trait := header, ""
			if tr, ty, ok := strings.Cut(header, " for "); ok {
				self, trait = strings.TrimSpace(ty), strings.TrimSpace(tr)
			}
			ds = append(ds, &pb.Descriptor{Name: "impl", Suffix: pb.Descriptor_Type}, &pb.Descriptor{Name: self, Suffix: pb.Descriptor_TypeParameter})
			if trait != "" {
				ds = append(ds, &pb.Descriptor{Name: trait, Suffix: pb.Descriptor_TypeParameter})
			}
		} else if s.Container != "" {
			ds = append(ds, &pb.Descriptor{Name: s.Container, Suffix: pb.Descriptor_Type})
		}
		ds = append(ds, &pb.Descriptor{Name: s.Name, Suffix: suffix(s.Kind, true)})
		return pb.VerboseSymbolFormatter.FormatSymbol(&pb.Symbol{Scheme: "rust-analyzer", Package: pkg, Descriptors: ds})
	}
	return ""
}

// rustModules is the module path of a Rust declaration inside its crate:
// its file's modules ("store::memory") and the inline modules around it
// ("tests").
func (e *exporter) rustModules(id analyze.SymID) []string {
	s := &e.fs.Symbols[id]
	f := &e.fs.Files[s.File]
	var out []string
	if parts := strings.Split(f.Package, "::"); len(parts) > 1 {
		for _, m := range parts[1:] { // the first is the crate itself
			if m != "" {
				out = append(out, m)
			}
		}
	}
	for _, m := range e.inlineModules(s.File) {
		o := &e.fs.Symbols[m]
		if m != id && s.DeclLine > o.Start && s.End <= o.End {
			out = append(out, o.Name)
		}
	}
	return out
}

// inlineModules are the modules written with a body in file f (mod tests
// { … }), outermost first.
func (e *exporter) inlineModules(f analyze.FileID) []analyze.SymID {
	if e.inline == nil {
		e.inline = map[analyze.FileID][]analyze.SymID{}
		for i, s := range e.fs.Symbols {
			if s.Kind == analyze.KindModule && s.End > s.DeclLine {
				e.inline[s.File] = append(e.inline[s.File], analyze.SymID(i))
			}
		}
	}
	return e.inline[f]
}

// cargoPackage is the package rust-analyzer names a file's symbols with:
// the name and version in the [package] table of the nearest Cargo.toml
// above the file ("user-svc", "0.1.0"); the crate name and "." when there
// is none.
func (e *exporter) cargoPackage(rel, crate string) *pb.Package {
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		if p, ok := e.cargo[dir]; ok {
			if p != nil {
				return p
			}
		} else {
			p := readCargoPackage(filepath.Join(e.fs.Root, filepath.FromSlash(dir), "Cargo.toml"))
			if e.cargo == nil {
				e.cargo = map[string]*pb.Package{}
			}
			e.cargo[dir] = p
			if p != nil {
				return p
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return &pb.Package{Manager: "cargo", Name: crate, Version: "."}
		}
	}
}

// readCargoPackage reads the [package] name and version of a Cargo.toml,
// or nil.
func readCargoPackage(file string) *pb.Package {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var m struct {
		Package struct {
			Name    string `toml:"name"`
			Version any    `toml:"version"` // a string, or { workspace = true }
		} `toml:"package"`
	}
	if toml.Unmarshal(data, &m) != nil || m.Package.Name == "" {
		return nil
	}
	version, _ := m.Package.Version.(string)
	if version == "" {
		version = "."
	}
	return &pb.Package{Manager: "cargo", Name: m.Package.Name, Version: version}
}

// ImplHeader is a Rust impl's header as written, without "impl" and its
// generic parameters ("impl<S: Store> UserService<S>" → "UserService<S>",
// "impl From<E> for X" → "From<E> for X"), which is how rust-analyzer
// displays the types in impl#[…][…]; fallback when sig is not an impl
// header.
func ImplHeader(sig, fallback string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(sig), "impl")
	if !ok {
		return fallback
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "<") {
		depth := 0
		for i, c := range rest {
			if c == '<' {
				depth++
			} else if c == '>' {
				depth--
				if depth == 0 {
					rest = rest[i+1:]
					break
				}
			}
		}
	}
	if i := strings.Index(rest, " where "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "{"))
}

// suffix is the descriptor suffix of a declaration's kind.
func suffix(k analyze.SymbolKind, rust bool) pb.Descriptor_Suffix {
	switch k {
	case analyze.KindFunc, analyze.KindMethod:
		return pb.Descriptor_Method
	case analyze.KindModule:
		return pb.Descriptor_Namespace
	case analyze.KindMacro:
		return pb.Descriptor_Macro
	case analyze.KindVariant:
		if rust {
			return pb.Descriptor_Type // rust-analyzer writes enum variants as types
		}
		return pb.Descriptor_Term
	case analyze.KindField, analyze.KindConst, analyze.KindVar, analyze.KindStatic:
		return pb.Descriptor_Term
	}
	return pb.Descriptor_Type
}

// infoKind is SCIP's kind of a declaration's kind.
func infoKind(k analyze.SymbolKind) pb.SymbolInformation_Kind {
	switch k {
	case analyze.KindFunc:
		return pb.SymbolInformation_Function
	case analyze.KindMethod:
		return pb.SymbolInformation_Method
	case analyze.KindStruct:
		return pb.SymbolInformation_Struct
	case analyze.KindInterface:
		return pb.SymbolInformation_Interface
	case analyze.KindType:
		return pb.SymbolInformation_Type
	case analyze.KindField:
		return pb.SymbolInformation_Field
	case analyze.KindConst:
		return pb.SymbolInformation_Constant
	case analyze.KindVar:
		return pb.SymbolInformation_Variable
	case analyze.KindEnum:
		return pb.SymbolInformation_Enum
	case analyze.KindUnion:
		return pb.SymbolInformation_Union
	case analyze.KindTrait:
		return pb.SymbolInformation_Trait
	case analyze.KindModule:
		return pb.SymbolInformation_Module
	case analyze.KindMacro:
		return pb.SymbolInformation_Macro
	case analyze.KindTypeAlias:
		return pb.SymbolInformation_TypeAlias
	case analyze.KindStatic:
		return pb.SymbolInformation_StaticVariable
	case analyze.KindAssocType:
		return pb.SymbolInformation_AssociatedType
	case analyze.KindVariant:
		return pb.SymbolInformation_EnumMember
	}
	return pb.SymbolInformation_UnspecifiedKind
}

// goModulePath is the module path in root's go.mod, or "".
func goModulePath(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
