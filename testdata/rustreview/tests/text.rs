use automata::text::words;

#[test]
fn splits_at_spaces() {
    assert_eq!(words("a b  c"), vec!["a", "b", "c"]);
}
