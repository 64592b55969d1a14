mod run;

#[test]
fn a_warm_palette_colours_each_count() {
    let out = run::tally(&["--palette", "warm", "src"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\x1b[33m"));
}

#[test]
fn an_unknown_palette_is_refused() {
    let out = run::tally(&["--palette", "neon"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(run::stderr(&out).contains("no palette called neon"));
}
