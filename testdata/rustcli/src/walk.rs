use std::fs;
use std::path::Path;

/// Counts the lines of every file under root, at most max_depth
/// directories down, sorted by path.
pub fn count_lines(root: &str, max_depth: usize) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    visit(Path::new(root), 0, max_depth, &mut out);
    out.sort();
    out
}

fn visit(dir: &Path, depth: usize, max_depth: usize, out: &mut Vec<(String, usize)>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if depth < max_depth {
                visit(&path, depth + 1, max_depth, out);
            }
        } else if let Ok(text) = fs::read_to_string(&path) {
            out.push((path.display().to_string(), text.lines().count()));
        }
    }
}
