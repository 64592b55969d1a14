package diffmode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

func TestScanGo(t *testing.T) {
	src := `package x

import "fmt"

// Limit caps things.
const Limit = 3

const (
	// A is a.
	A = 1
	B, _ = 2, 3
)

// Store keeps things.
type Store[K comparable] struct {
	m map[K]int
}

type (
	Getter interface{ Get() int }
	Alias = Store[string]
)

// Get returns one.
func (s *Store[K]) Get(k K) int {
	return s.m[k]
}

func helper() { fmt.Println("}") }

func broken( {
`
	want := []Decl{
		{Name: "Limit", Kind: analyze.KindConst, Start: 5, End: 6, Parent: -1},
		{Name: "A", Kind: analyze.KindConst, Start: 9, End: 10, Parent: -1},
		{Name: "B", Kind: analyze.KindConst, Start: 11, End: 11, Parent: -1},
		{Name: "Store", Kind: analyze.KindStruct, Start: 14, End: 17, Parent: -1},
		{Name: "Getter", Kind: analyze.KindInterface, Start: 20, End: 20, Parent: -1},
		{Name: "Alias", Kind: analyze.KindTypeAlias, Start: 21, End: 21, Parent: -1},
		{Name: "Get", Container: "Store", Kind: analyze.KindMethod, Start: 24, End: 27, Parent: -1},
		{Name: "helper", Kind: analyze.KindFunc, Start: 29, End: 29, Parent: -1},
	}
	got := scanGo([]byte(src))
	// The broken function at the end is whatever the parser recovered;
	// everything before it must be exact.
	if len(got) < len(want) {
		t.Fatalf("got %d decls, want at least %d: %+v", len(got), len(want), got)
	}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Errorf("scanGo (-want +got):\n%s", diff)
	}
}

func TestScanRust(t *testing.T) {
	src := `//! Crate docs with a { brace.
use std::collections::HashMap;

/// A store.
#[derive(Debug, Clone)]
pub struct Store<'a> {
    items: HashMap<&'a str, u32>,
}

pub struct Unit;

pub(crate) enum Kind { A, B(u8) }

impl<'a> Store<'a> {
    /// Finds by name.
    pub fn find_by_name(&self, name: &str) -> Option<u32> {
        let s = "not a } brace";
        let r = r#"raw { "quoted" }"#;
        let c = '}';
        self.items.get(name).copied()
    }

    const MAX: usize = 10;

    pub(crate) async fn load(&mut self) {}
}

impl<T: Clone> fmt::Display for Wrapper<T> where T: Debug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }
}

pub trait Repo {
    type Item;
    fn get(&self, id: u32) -> Option<Self::Item>;
    fn all(&self) -> Vec<Self::Item> { vec![] }
}

mod inner {
    pub fn deep() -> [u8; 4] { [0; 4] }
}

macro_rules! square { ($x:expr) => { $x * $x }; }

lazy_static! { static ref X: u8 = 1; }

static mut COUNTER: u32 = 0;
const fn zero() -> u32 { 0 }
pub const NAMES: [&str; 2] = ["a", "b"];
`
	type d struct {
		Name, Container string
		Kind            analyze.SymbolKind
		Start, End      int
	}
	var got []d
	for _, x := range scanRust([]byte(src)) {
		got = append(got, d{x.Name, x.Container, x.Kind, x.Start, x.End})
	}
	want := []d{
		{"Store", "", analyze.KindStruct, 4, 8},
		{"Unit", "", analyze.KindStruct, 10, 10},
		{"Kind", "", analyze.KindEnum, 12, 12},
		{"Store", "", analyze.KindImpl, 14, 26},
		{"find_by_name", "Store", analyze.KindMethod, 15, 21},
		{"MAX", "Store", analyze.KindConst, 23, 23},
		{"load", "Store", analyze.KindMethod, 25, 25},
		{"Wrapper", "", analyze.KindImpl, 28, 30},
		{"fmt", "Wrapper", analyze.KindMethod, 29, 29},
		{"Repo", "", analyze.KindTrait, 32, 36},
		{"Item", "Repo", analyze.KindAssocType, 33, 33},
		{"get", "Repo", analyze.KindMethod, 34, 34},
		{"all", "Repo", analyze.KindMethod, 35, 35},
		{"inner", "", analyze.KindModule, 38, 40},
		{"deep", "", analyze.KindFunc, 39, 39},
		{"square", "", analyze.KindMacro, 42, 42},
		{"COUNTER", "", analyze.KindStatic, 46, 46},
		{"zero", "", analyze.KindFunc, 47, 47},
		{"NAMES", "", analyze.KindConst, 48, 48},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scanRust (-want +got):\n%s", diff)
	}
}

func TestImplType(t *testing.T) {
	for in, want := range map[string]string{
		" Store ":                          "Store",
		"<'a> Store<'a> ":                  "Store",
		" fmt::Display for crate::a::W<T>": "W",
		"<T> From<Vec<T>> for Bag<T> where T: Clone ": "Bag",
		" Trait for &mut Thing":                       "Thing",
		" dyn Any + Send":                             "Any",
	} {
		if got := implType(in); got != want {
			t.Errorf("implType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskRust(t *testing.T) {
	src := "let a = \"{\\\"}\"; // }\n/* { /* } */ } */ let b = 'x'; let l: &'a str = r##\"}\"#}\"##;"
	m := string(maskRust([]byte(src)))
	if len(m) != len(src) {
		t.Fatalf("mask changed the length: %d != %d", len(m), len(src))
	}
	for i, c := range m {
		if c == '{' || c == '}' {
			t.Errorf("brace left unmasked at %d: %q", i, m)
		}
	}
	if want := "let l: &'a str"; !strings.Contains(m, want) {
		t.Errorf("lifetime masked: %q", m)
	}
}
