package query

import (
	"fmt"
	"strconv"
	"strings"
)

// kindNames are the short names of term kinds in Explain's output.
var kindNames = map[TermKind]string{
	TermWord: "word", TermIdent: "ident", TermIdentPart: "part",
	TermSynonym: "synonym", TermArea: "area", TermPath: "path",
}

// String is the short name of a term kind ("word", "ident"…).
func (k TermKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// String is the short name of an entity kind.
func (k EntityKind) String() string {
	switch k {
	case EntitySymbol:
		return "symbol"
	case EntityPath:
		return "path"
	case EntityCode:
		return "code"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// String is the short name of a reference kind.
func (k RefKind) String() string {
	switch k {
	case RefFile:
		return "file"
	case RefSearch:
		return "search"
	case RefGrep:
		return "grep"
	case RefURL:
		return "url"
	case RefSymbol:
		return "symbol"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// LineRange renders a file reference's line range as "10-20", "10" or ""
// for the whole file.
func (r Ref) LineRange() string {
	switch {
	case r.StartLine == 0:
		return ""
	case r.EndLine == r.StartLine:
		return strconv.Itoa(r.StartLine)
	}
	return strconv.Itoa(r.StartLine) + "-" + strconv.Itoa(r.EndLine)
}

// Explain renders the plan for people, one aspect per line, as --explain
// prints it. The output is deterministic.
func (p *Plan) Explain() string {
	var b strings.Builder
	row := func(label, value string) {
		if value != "" {
			fmt.Fprintf(&b, "  %-10s %s\n", label+":", value)
		}
	}
	list := func(label string, items []string) {
		for i, it := range items {
			if i == 0 {
				row(label, it)
			} else {
				fmt.Fprintf(&b, "  %-10s %s\n", "", it)
			}
		}
	}
	fmt.Fprintf(&b, "plan (%s)\n", p.Planner)
	row("query", oneLine(p.Text, 160))
	row("action", string(p.Action))
	row("kind", string(p.Kind))
	row("scope", fmt.Sprintf("%s, complexity %d/5", p.Scope, p.Complexity))
	tests := "tests included"
	if !p.IncludeTests {
		tests = "tests excluded"
	}
	row("strategy", fmt.Sprintf("%s, depth %d, %s", p.Strategy, p.Depth, tests))
	list("areas", p.Areas)

	var ents []string
	for _, e := range p.Entities {
		s := fmt.Sprintf("%s (%s", oneLine(e.Raw, 80), e.Kind)
		if e.Kind != EntityPath && len(e.Parts) > 0 && !(len(e.Parts) == 1 && e.Parts[0] == e.Raw) {
			s += ": " + strings.Join(e.Parts, " › ")
		}
		if e.Explicit {
			s += ", explicit"
		}
		if e.Bare {
			s += ", if declared so"
		}
		ents = append(ents, s+")")
	}
	list("entities", ents)
	list("paths", p.Paths)
	list("globs", p.Globs)

	var errs []string
	for _, e := range p.Errors {
		errs = append(errs, strconv.Quote(oneLine(e, 100)))
	}
	list("errors", errs)

	var frames []string
	for i, f := range p.Frames {
		s := fmt.Sprintf("#%d %s", i, f.Func)
		if f.Func == "" {
			s = fmt.Sprintf("#%d (panic location)", i)
		}
		if f.Path != "" {
			s += fmt.Sprintf("  %s:%d", f.Path, f.Line)
		}
		if f.External {
			s += "  [external]"
		}
		frames = append(frames, s)
	}
	list("frames", frames)

	var refs []string
	for _, r := range p.Refs {
		s := fmt.Sprintf("%s %s", r.Kind, oneLine(r.Value, 100))
		if lr := r.LineRange(); lr != "" {
			s += " lines " + lr
		}
		refs = append(refs, s)
	}
	list("refs", refs)

	// Terms show as the words they came from, not as the index's stems.
	texts := make([]string, len(p.Terms))
	for i, t := range p.Terms {
		texts[i] = t.Text
	}
	words := p.TermWords().Words(texts)
	var terms []string
	line := ""
	for i, t := range p.Terms {
		item := fmt.Sprintf("%s %s/%s", words[i], strconv.FormatFloat(t.Weight, 'g', -1, 64), t.Kind)
		if line != "" && len(line)+2+len(item) > 72 {
			terms = append(terms, line)
			line = ""
		}
		if line != "" {
			line += ", "
		}
		line += item
	}
	if line != "" {
		terms = append(terms, line)
	}
	list("terms", terms)
	list("warnings", p.Warnings)
	return b.String()
}

// oneLine shows s on one line, cut to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
