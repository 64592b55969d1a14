package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The subset of the Language Server Protocol (3.17) the loader speaks.
// Field names follow the specification; only what is read is declared.

// Position is a zero-based line and a character offset in UTF-16 code
// units (the default encoding; the loader only uses lines).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open span of positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// LocationLink is the richer answer some servers give to definition and
// implementation requests.
type LocationLink struct {
	TargetURI            string `json:"targetUri"`
	TargetRange          Range  `json:"targetRange"`
	TargetSelectionRange Range  `json:"targetSelectionRange"`
}

// locations decodes the result of a definition or implementation request:
// null, a Location, a list of Locations or a list of LocationLinks.
func decodeLocations(raw json.RawMessage) ([]Location, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	if s[0] == '{' {
		var l Location
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, err
		}
		return []Location{l}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]Location, 0, len(items))
	for _, it := range items {
		var probe struct {
			URI       *string `json:"uri"`
			TargetURI *string `json:"targetUri"`
		}
		if err := json.Unmarshal(it, &probe); err != nil {
			return nil, err
		}
		if probe.TargetURI != nil {
			var ll LocationLink
			if err := json.Unmarshal(it, &ll); err != nil {
				return nil, err
			}
			out = append(out, Location{URI: ll.TargetURI, Range: ll.TargetSelectionRange})
			continue
		}
		var l Location
		if err := json.Unmarshal(it, &l); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// SymbolKind is the LSP symbol kind.
type SymbolKind int

// The LSP symbol kinds the loader maps.
const (
	skFile          SymbolKind = 1
	skModule        SymbolKind = 2
	skNamespace     SymbolKind = 3
	skPackage       SymbolKind = 4
	skClass         SymbolKind = 5
	skMethod        SymbolKind = 6
	skProperty      SymbolKind = 7
	skField         SymbolKind = 8
	skConstructor   SymbolKind = 9
	skEnum          SymbolKind = 10
	skInterface     SymbolKind = 11
	skFunction      SymbolKind = 12
	skVariable      SymbolKind = 13
	skConstant      SymbolKind = 14
	skObject        SymbolKind = 19
	skEnumMember    SymbolKind = 22
	skStruct        SymbolKind = 23
	skTypeParameter SymbolKind = 26
)

// DocumentSymbol is one node of a textDocument/documentSymbol answer.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           SymbolKind       `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// SymbolInformation is the flat form some servers answer documentSymbol
// with.
type SymbolInformation struct {
	Name          string     `json:"name"`
	Kind          SymbolKind `json:"kind"`
	Location      Location   `json:"location"`
	ContainerName string     `json:"containerName,omitempty"`
}

// decodeDocumentSymbols accepts both answer shapes. The flat form has no
// selection range; the name's line is taken to be the first line.
func decodeDocumentSymbols(raw json.RawMessage) ([]DocumentSymbol, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" || s == "[]" {
		return nil, nil
	}
	var probe []struct {
		Location *Location `json:"location"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, err
	}
	if len(probe) == 0 || probe[0].Location == nil {
		var out []DocumentSymbol
		err := json.Unmarshal(raw, &out)
		return out, err
	}
	var flat []SymbolInformation
	if err := json.Unmarshal(raw, &flat); err != nil {
		return nil, err
	}
	out := make([]DocumentSymbol, 0, len(flat))
	for _, si := range flat {
		sel := Range{Start: si.Location.Range.Start, End: si.Location.Range.Start}
		out = append(out, DocumentSymbol{Name: si.Name, Kind: si.Kind, Range: si.Location.Range, SelectionRange: sel, Detail: si.ContainerName})
	}
	return out, nil
}

// CallHierarchyItem is a callable as the call hierarchy requests see it.
type CallHierarchyItem struct {
	Name           string          `json:"name"`
	Kind           SymbolKind      `json:"kind"`
	Detail         string          `json:"detail,omitempty"`
	URI            string          `json:"uri"`
	Range          Range           `json:"range"`
	SelectionRange Range           `json:"selectionRange"`
	Data           json.RawMessage `json:"data,omitempty"`
}

// CallHierarchyOutgoingCall is one callee and the places it is called.
type CallHierarchyOutgoingCall struct {
	To         CallHierarchyItem `json:"to"`
	FromRanges []Range           `json:"fromRanges"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// TextDocumentPositionParams is a position in a document.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// ReferenceParams asks for the references to the symbol at a position.
type ReferenceParams struct {
	TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// fileURI turns an absolute file name into a file:// URI.
func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive letters: file:///C:/…
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// uriPath turns a file:// URI back into an absolute file name; ok is false
// for other schemes.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/x → C:/x
	}
	return filepath.FromSlash(p), true
}
