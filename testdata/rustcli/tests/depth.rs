mod run;

#[test]
fn max_depth_zero_counts_the_top_directory_only() {
    let out = run::tally(&["--max-depth", "0", "."]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("src/"));
}

#[test]
fn max_depth_needs_a_number() {
    let out = run::tally(&["--max-depth", "deep"]);
    assert!(run::stderr(&out).contains("not a number: deep"));
}
