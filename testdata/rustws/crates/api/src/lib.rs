//! A text API over the core geometry: parses shape specs and reports areas.

pub mod report;

// Re-exported so that API users need not depend on ws-core themselves.
pub use ws_core::shapes::Circle as Round;
pub use ws_core::Shape;

/// Parses `circle R` or `rect W H` into a shape.
pub fn parse_shape(spec: &str) -> Option<Box<dyn Shape>> {
    let parts: Vec<&str> = spec.split_whitespace().collect();
    match parts.as_slice() {
        ["circle", r] => Some(Box::new(Round { radius: r.parse().ok()? })),
        ["rect", w, h] => Some(Box::new(ws_core::shapes::Rect {
            width: w.parse().ok()?,
            height: h.parse().ok()?,
        })),
        ["square", s] => Some(Box::new(ws_core::shapes::Rect::square(s.parse().ok()?))),
        _ => None,
    }
}
