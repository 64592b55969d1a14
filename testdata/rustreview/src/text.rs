/// Splits `line` into words at ASCII white space.
pub fn words(line: &str) -> Vec<&str> {
    line.split_ascii_whitespace().collect()
}
