//! Area reports.

use ws_core::units::*;
use ws_core::{total_area, Shape};

use crate::parse_shape;

/// One line per shape with its area in square feet, then the total.
pub fn area_report(specs: &[&str]) -> String {
    let shapes: Vec<Box<dyn Shape>> = specs.iter().filter_map(|s| parse_shape(s)).collect();
    let mut out = String::new();
    for shape in &shapes {
        out.push_str(&format!("{}: {} sq ft\n", shape.name(), round2(to_square_feet(shape.area()))));
    }
    out.push_str(&format!("total: {} sq ft\n", round2(to_square_feet(total_area(&shapes)))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_report_lists_each_shape_and_total() {
        let report = area_report(&["rect 2 3", "square 1"]);
        assert!(report.contains("rect 2x3: 64.58 sq ft"), "{report}");
        assert!(report.ends_with("total: 75.35 sq ft\n"), "{report}");
    }
}
