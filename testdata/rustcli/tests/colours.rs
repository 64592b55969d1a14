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

#[test]
fn coloured_lines_end_with_a_reset() {
    let out = run::tally(&["src"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().all(|line| !line.contains("\x1b[") || line.ends_with("\x1b[0m")));
}
