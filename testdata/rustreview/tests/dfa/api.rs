use automata::dfa::dense::Table;

#[test]
fn table_accepts_its_word() {
    let t = Table::for_word(b"abc");
    assert!(t.accepts(b"abc"));
    assert!(!t.accepts(b"abd"));
}
